import java.io.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * H2 durability-under-SIGKILL experiment.
 *
 *   kill  <reps>  (env SIGNAL=TERM: send SIGTERM instead of SIGKILL)
 *   kill  <reps> <threads> <minKillMs> <maxKillMs> name=suffix ...   SIGKILL loss test (interleaved variants)
 *   bench <rounds> <threads> <ms> name=suffix ...                    throughput, no kill (interleaved, warm-up round 0 discarded)
 *   grow  <orders> <threads> name=suffix ...                          file size after N orders (2 commits each, as the shop)
 *   child <url> <threads> <ms> <print 0|1>                           (internal) the worker JVM
 *
 * suffix = everything after jdbc:h2:file:<dir>/shop  (e.g. ";LOCK_TIMEOUT=10000;AUTO_SERVER=TRUE")
 */
public class H2DurabilityExperiment {
    static final long SLEEP_MS = Long.parseLong(System.getenv().getOrDefault("SLEEP_MS", "0"));
    static final String JAR = System.getProperty("java.class.path");

    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "child": child(a[1], Integer.parseInt(a[2]), Long.parseLong(a[3]), a[4].equals("1")); break;
            case "kill": kill(a); break;
            case "bench": bench(a); break;
            case "grow": grow(a); break;
            default: throw new IllegalArgumentException(a[0]);
        }
    }

    // ---------------------------------------------------------------- child
    static void child(String url, int threads, long ms, boolean print) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            c.createStatement().execute("CREATE TABLE IF NOT EXISTS ORDERS(ID BIGINT PRIMARY KEY, T INT, PAYLOAD VARCHAR(200))");
        }
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false);
        AtomicLong next = new AtomicLong();
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + ms * 1_000_000L;
        out.println("READY"); out.flush();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int tt = t;
            Thread th = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(url, "sa", "")) {
                    c.setAutoCommit(false);
                    PreparedStatement ps = c.prepareStatement("INSERT INTO ORDERS(ID,T,PAYLOAD) VALUES(?,?,?)");
                    while (System.nanoTime() < end) {
                        long id = next.incrementAndGet();
                        ps.setLong(1, id); ps.setInt(2, tt); ps.setString(3, "order-payload-" + id + "-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
                        ps.executeUpdate();
                        c.commit();                       // <- "201" may be sent after this returns
                        done.incrementAndGet();
                        if (print) synchronized (out) { out.println(id); out.flush(); }
                        if (SLEEP_MS > 0) Thread.sleep(SLEEP_MS);   // env SLEEP_MS: throttle to a realistic rate
                    }
                } catch (Throwable e) {
                    synchronized (out) { out.println("ERR " + e); out.flush(); }
                }
            });
            ts.add(th); th.start();
        }
        long t0 = System.nanoTime();
        Path file = Paths.get(url.substring("jdbc:h2:file:".length(), url.indexOf(';') < 0 ? url.length() : url.indexOf(';')) + ".mv.db");
        long maxSize = 0, lastTrace = t0;
        boolean trace = System.getenv("SIZE_TRACE") != null;
        while (ts.stream().anyMatch(Thread::isAlive)) {
            try { maxSize = Math.max(maxSize, Files.size(file)); } catch (IOException e) { }
            if (trace && System.nanoTime() - lastTrace > 5_000_000_000L) {
                lastTrace = System.nanoTime();
                System.err.printf("  [trace %s] t=%5.1fs commits=%8d fileMB=%8.1f%n", url.substring(url.indexOf(';')), (lastTrace - t0) / 1e9, done.get(),
                        Files.exists(file) ? Files.size(file) / 1048576.0 : -1);
            }
            Thread.sleep(100);
        }
        for (Thread th : ts) th.join();
        double sec = (System.nanoTime() - t0) / 1e9;
        long finalSize = Files.exists(file) ? Files.size(file) : -1;
        out.println("DONE " + done.get() + " " + sec + " " + maxSize + " " + finalSize); out.flush();
        // clean close (only reached in bench mode)
    }

    static Process spawn(String url, int threads, long ms, boolean print) throws IOException {
        String javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String src = Paths.get(System.getProperty("exp.src", "bench/h2-durability/H2DurabilityExperiment.java")).toString();
        ProcessBuilder pb = new ProcessBuilder(javaBin, "-cp", JAR, src, "child", url, "" + threads, "" + ms, print ? "1" : "0");
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }

    static Path freshDir(String name) throws IOException {
        Path d = Paths.get(System.getProperty("java.io.tmpdir"), "h2-durability-db", name);
        if (Files.exists(d)) try (var s = Files.walk(d)) { s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete()); }
        Files.createDirectories(d);
        return d;
    }

    static LinkedHashMap<String, String> variants(String[] a, int from) {
        LinkedHashMap<String, String> m = new LinkedHashMap<>();
        for (int i = from; i < a.length; i++) { int k = a[i].indexOf('='); m.put(a[i].substring(0, k), a[i].substring(k + 1)); }
        return m;
    }

    // ---------------------------------------------------------------- grow
    /**
     * File growth: each order is what the shop commits for one POST /api/v1/orders with a claim
     * first, a key row committed on its own, then the order and the completed key in one commit.
     * Prints the file size while open (after the last commit) and after a clean close.
     */
    static void grow(String[] a) throws Exception {
        int orders = Integer.parseInt(a[1]), threads = Integer.parseInt(a[2]);
        System.out.printf("%-28s %8s %9s %12s %12s%n", "variant", "orders", "seconds", "open MB", "closed MB");
        for (var v : variants(a, 3).entrySet()) {
            Path dir = freshDir("grow-" + v.getKey());
            String url = "jdbc:h2:file:" + dir + "/shop" + v.getValue();
            try (Connection c = DriverManager.getConnection(url, "sa", "")) {
                c.createStatement().execute("CREATE TABLE KEYS(K VARCHAR(64) PRIMARY KEY, STATUS VARCHAR(16), BODY VARCHAR(2000))");
                c.createStatement().execute("CREATE TABLE ORDERS(ID VARCHAR(64) PRIMARY KEY, PAYLOAD VARCHAR(2000))");
                AtomicInteger next = new AtomicInteger();
                long t0 = System.nanoTime();
                List<Thread> ts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Thread th = new Thread(() -> {
                        try (Connection w = DriverManager.getConnection(url, "sa", "")) {
                            w.setAutoCommit(false);
                            PreparedStatement claim = w.prepareStatement("INSERT INTO KEYS(K, STATUS) VALUES(?, 'PROCESSING')");
                            PreparedStatement order = w.prepareStatement("INSERT INTO ORDERS(ID, PAYLOAD) VALUES(?, ?)");
                            PreparedStatement done = w.prepareStatement("UPDATE KEYS SET STATUS = 'COMPLETED', BODY = ? WHERE K = ?");
                            String payload = "x".repeat(300);
                            for (int i; (i = next.incrementAndGet()) <= orders; ) {
                                String key = UUID.randomUUID().toString();
                                claim.setString(1, key); claim.executeUpdate(); w.commit();
                                order.setString(1, "order-" + i); order.setString(2, payload); order.executeUpdate();
                                done.setString(1, payload); done.setString(2, key); done.executeUpdate(); w.commit();
                            }
                        } catch (SQLException e) { throw new RuntimeException(e); }
                    });
                    ts.add(th); th.start();
                }
                for (Thread th : ts) th.join();
                double sec = (System.nanoTime() - t0) / 1e9;
                long open = Files.size(dir.resolve("shop.mv.db"));
                c.close();
                long closed = Files.size(dir.resolve("shop.mv.db"));
                System.out.printf("%-28s %8d %9.1f %12.1f %12.1f%n", v.getKey(), orders, sec, open / 1048576.0, closed / 1048576.0);
            }
        }
    }

    // ---------------------------------------------------------------- kill
    static void kill(String[] a) throws Exception {
        int reps = Integer.parseInt(a[1]), threads = Integer.parseInt(a[2]);
        int minK = Integer.parseInt(a[3]), maxK = Integer.parseInt(a[4]);
        var vs = variants(a, 5);
        Random rnd = new Random(42);
        Map<String, List<String>> summary = new LinkedHashMap<>();
        for (int r = 0; r < reps; r++) {
            for (var v : vs.entrySet()) {
                Path dir = freshDir(v.getKey());
                String url = "jdbc:h2:file:" + dir + "/shop" + v.getValue();
                int killMs = minK + rnd.nextInt(maxK - minK + 1);
                Process p = spawn(url, threads, 600_000, true);
                BufferedReader br = new BufferedReader(new InputStreamReader(p.getInputStream()));
                String line = br.readLine();
                if (!"READY".equals(line)) throw new IllegalStateException("child said " + line);
                Set<Long> printed = ConcurrentHashMap.newKeySet();
                List<String> errs = new CopyOnWriteArrayList<>();
                Thread reader = new Thread(() -> {
                    try { String l; while ((l = br.readLine()) != null) { if (l.startsWith("ERR")) errs.add(l); else if (!l.startsWith("DONE")) printed.add(Long.parseLong(l)); } }
                    catch (IOException e) { }
                });
                reader.start();
                Thread.sleep(killMs);
                if ("TERM".equals(System.getenv("SIGNAL"))) p.destroy();   // SIGTERM (shutdown hooks run)
                else p.destroyForcibly();                // SIGKILL on Linux
                p.waitFor();
                reader.join();                           // drain ids already in the pipe: they were committed
                long t0 = System.nanoTime();
                Set<Long> present = new HashSet<>();
                try (Connection c = DriverManager.getConnection(url, "sa", "");
                     ResultSet rs = c.createStatement().executeQuery("SELECT ID FROM ORDERS")) {
                    while (rs.next()) present.add(rs.getLong(1));
                }
                long reopenMs = (System.nanoTime() - t0) / 1_000_000;
                long lost = printed.stream().filter(id -> !present.contains(id)).count();
                long maxPrinted = printed.stream().mapToLong(x -> x).max().orElse(0);
                String res = String.format("rep=%d variant=%-22s killAt=%4dms printed=%6d present=%6d LOST=%5d exit=%d reopen=%dms errs=%d",
                        r, v.getKey(), killMs, printed.size(), present.size(), lost, p.exitValue(), reopenMs, errs.size());
                System.out.println(res); System.out.flush();
                summary.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(lost + "/" + printed.size());
            }
        }
        System.out.println("\nSUMMARY (lost/printed-committed per run)");
        for (var e : summary.entrySet()) {
            long runsWithLoss = e.getValue().stream().filter(s -> !s.startsWith("0/")).count();
            long totLost = e.getValue().stream().mapToLong(s -> Long.parseLong(s.split("/")[0])).sum();
            long totPrinted = e.getValue().stream().mapToLong(s -> Long.parseLong(s.split("/")[1])).sum();
            System.out.printf("%-22s runsWithLoss=%d/%d totalLost=%d of %d  %s  suffix=%s%n", e.getKey(), runsWithLoss, e.getValue().size(),
                    totLost, totPrinted, e.getValue(), vs.get(e.getKey()));
        }
    }

    // ---------------------------------------------------------------- bench
    static void bench(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[1]), threads = Integer.parseInt(a[2]); long ms = Long.parseLong(a[3]);
        var vs = variants(a, 4);
        Map<String, List<Double>> res = new LinkedHashMap<>();
        for (int r = 0; r <= rounds; r++) {                 // round 0 = warm-up, discarded
            for (var v : vs.entrySet()) {
                Path dir = freshDir("bench-" + v.getKey());
                String url = "jdbc:h2:file:" + dir + "/shop" + v.getValue();
                Process p = spawn(url, threads, ms, false);
                BufferedReader br = new BufferedReader(new InputStreamReader(p.getInputStream()));
                String l, done = null;
                while ((l = br.readLine()) != null) { if (l.startsWith("DONE")) done = l; else if (l.startsWith("ERR")) System.out.println(l); }
                p.waitFor();
                String[] f = done.split(" ");
                double tps = Long.parseLong(f[1]) / Double.parseDouble(f[2]);
                System.out.printf("round=%d variant=%-22s commits=%8d commits/s=%9.0f maxFileMB(during run)=%7.1f fileMB(after close)=%7.1f%s%n", r, v.getKey(),
                        Long.parseLong(f[1]), tps, Long.parseLong(f[3]) / 1048576.0, Long.parseLong(f[4]) / 1048576.0, r == 0 ? " (warm-up, discarded)" : "");
                System.out.flush();
                if (r > 0) res.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(tps);
            }
        }
        System.out.println("\nBENCH SUMMARY threads=" + threads + " ms=" + ms);
        Double base = null;
        for (var e : res.entrySet()) {
            List<Double> x = new ArrayList<>(e.getValue()); Collections.sort(x);
            double med = x.get(x.size() / 2), mean = x.stream().mapToDouble(d -> d).average().orElse(0);
            if (base == null) base = med;
            System.out.printf("%-22s median=%8.0f mean=%8.0f min=%8.0f max=%8.0f  ratio(median vs first)=%.3f  suffix=%s%n",
                    e.getKey(), med, mean, x.get(0), x.get(x.size() - 1), med / base, vs.get(e.getKey()));
        }
    }
}
