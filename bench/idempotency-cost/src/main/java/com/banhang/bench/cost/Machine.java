package com.banhang.bench.cost;

import static com.banhang.bench.cost.CostBench.abort;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the machine says, from /proc and a few commands: the shop's JVM and the bench's postmaster
 * (found once), the CPU they use ({@link #serverTicks()}), the shop's memory, and the machine's
 * description for the report (CPU model, memory, Java, date, load average).
 */
final class Machine {

  static long clockTicksPerSecond = 100;

  final long shopPid;
  final long postmasterPid;

  Machine(long shopPid, long postmasterPid) {
    this.shopPid = shopPid;
    this.postmasterPid = postmasterPid;
  }

  /** The shop JVM's CPU plus, on PostgreSQL, all of the postmaster's processes, in ticks. */
  long serverTicks() {
    long ticks = cpuTicks(shopPid);
    if (postmasterPid > 0) {
      ticks += postgresTicks(postmasterPid);
    }
    return ticks;
  }

  /** This JVM's CPU, in ticks: the client's, shown apart. */
  static long clientTicks() {
    return cpuTicks(ProcessHandle.current().pid());
  }

  /**
   * utime + stime of the postmaster and of every process named postgres whose parent chain leads to
   * it, plus the postmaster's cutime + cstime (what its children that ended used): the sum does not
   * drop when a backend exits.
   */
  static long postgresTicks(long postmaster) {
    Map<Long, long[]> stats = new HashMap<>(); // pid -> {ppid, utime+stime}
    Map<Long, String> names = new HashMap<>();
    try (var dirs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) dirs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
          stats.put(
              Long.parseLong(name),
              new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12])});
          names.put(Long.parseLong(name), comm);
        } catch (IOException | RuntimeException e) {
          // gone meanwhile
        }
      }
    } catch (IOException e) {
      throw abort("cannot list /proc: " + e);
    }
    long total = 0;
    for (Map.Entry<Long, long[]> e : stats.entrySet()) {
      long pid = e.getKey();
      if (!"postgres".equals(names.get(pid))) {
        continue;
      }
      long at = pid;
      for (int depth = 0; depth < 10 && at > 1; depth++) {
        if (at == postmaster) {
          total += e.getValue()[1];
          break;
        }
        long[] s = stats.get(at);
        if (s == null) {
          break;
        }
        at = s[0];
      }
    }
    try {
      String stat = Files.readString(Path.of("/proc/" + postmaster + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      total += Long.parseLong(f[13]) + Long.parseLong(f[14]);
    } catch (IOException | RuntimeException e) {
      throw abort("the postmaster " + postmaster + " is gone: " + e);
    }
    return total;
  }

  /** utime + stime of a process, all its threads, in clock ticks. */
  static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      throw abort("cannot read the CPU time of pid " + pid + ": " + e);
    }
  }

  static double ticksToMicros(long ticks) {
    return ticks * 1_000_000.0 / clockTicksPerSecond;
  }

  static long clockTicks() {
    String out = run("getconf", "CLK_TCK").trim();
    try {
      return Long.parseLong(out);
    } catch (NumberFormatException e) {
      return 100;
    }
  }

  static String[] cmdline(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.UTF_8)
          .split("\0");
    } catch (IOException | RuntimeException e) {
      return new String[0];
    }
  }

  /** The one JVM whose command line runs ws-server.jar for this server name. */
  static long findShopPid(String server) {
    List<Long> found =
        ProcessHandle.allProcesses()
            .map(ProcessHandle::pid)
            .filter(
                pid -> {
                  List<String> args = Arrays.asList(cmdline(pid));
                  return args.stream().anyMatch(a -> a.endsWith("ws-server.jar"))
                      && args.contains(server);
                })
            .toList();
    if (found.size() != 1) {
      throw abort(
          found.size() + " Liberty JVMs for server " + server + ": " + found + "; pass --pid");
    }
    return found.get(0);
  }

  /** The postmaster: a postgres process whose command line has -D <data dir>. */
  static long findPostmaster(String dataDir) {
    Path want = Path.of(dataDir).toAbsolutePath().normalize();
    List<Long> found =
        ProcessHandle.allProcesses()
            .map(ProcessHandle::pid)
            .filter(
                pid -> {
                  String[] args = cmdline(pid);
                  if (args.length < 3 || !args[0].endsWith("/postgres")) {
                    return false;
                  }
                  for (int i = 0; i + 1 < args.length; i++) {
                    if (args[i].equals("-D")
                        && Path.of(args[i + 1]).toAbsolutePath().normalize().equals(want)) {
                      return true;
                    }
                  }
                  return false;
                })
            .toList();
    if (found.size() != 1) {
      throw abort(found.size() + " postmasters for data directory " + want + ": " + found);
    }
    return found.get(0);
  }

  String shopMemory() {
    StringBuilder s = new StringBuilder();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + shopPid + "/status"))) {
        if (line.startsWith("VmRSS") || line.startsWith("VmHWM")) {
          s.append(line.replaceAll("\\s+", " ")).append('\n');
        }
      }
    } catch (IOException e) {
      s.append("no /proc status: ").append(e).append('\n');
    }
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    s.append("jcmd ").append(shopPid).append(" GC.heap_info:\n");
    s.append(run(jcmd, Long.toString(shopPid), "GC.heap_info"));
    return s.toString();
  }

  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown CPU";
  }

  static String memTotal() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal")) {
          long kb = Long.parseLong(line.replaceAll("\\D", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    }
    return "unknown";
  }

  static String javaVersion() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return run(java, "-version").trim().replace("\n", "; ");
  }

  static String dateU() {
    return run("date", "-u").trim();
  }

  static String run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      return out;
    } catch (IOException e) {
      return "(" + String.join(" ", command) + " failed: " + e + ")\n";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(interrupted)\n";
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }
}
