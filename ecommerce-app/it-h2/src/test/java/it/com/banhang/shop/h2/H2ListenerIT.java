package it.com.banhang.shop.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The test servers open their H2 files with AUTO_SERVER, a TCP listener with an empty password, so
 * that the tests can read the shop's tables while it runs. H2 listens on every interface unless
 * told otherwise: it must listen on loopback only. (The README's run command opens no listener at
 * all.) H2 writes the listener's address into the lock file while the database is open.
 */
class H2ListenerIT {

  private static final Path LOCK =
      Path.of(System.getProperty("shop.h2.dir", "target/h2")).resolve("shop.lock.db");

  @Test
  void theShopsDatabaseListensOnLoopbackOnly() throws IOException {
    assertThat(LOCK).as("the running shop's H2 lock file").exists();
    Properties lock = new Properties();
    try (Reader reader = Files.newBufferedReader(LOCK, StandardCharsets.ISO_8859_1)) {
      lock.load(reader);
    }
    String server = lock.getProperty("server");
    assertThat(server).as("AUTO_SERVER's address in %s", lock).isNotBlank();
    int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));
    InetAddress outside =
        NetworkInterface.networkInterfaces()
            .flatMap(NetworkInterface::inetAddresses)
            .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
            .findFirst()
            .orElseThrow(() -> new AssertionError("this machine has no non-loopback address"));

    // Listening on loopback: reachable there, refused on the machine's other address.
    try (Socket local = new Socket()) {
      local.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
    }
    assertThatThrownBy(
            () -> {
              try (Socket remote = new Socket()) {
                remote.connect(new InetSocketAddress(outside, port), 2000);
              }
            })
        .as("H2's listener on %s:%d", outside, port)
        .isInstanceOf(ConnectException.class);
  }
}
