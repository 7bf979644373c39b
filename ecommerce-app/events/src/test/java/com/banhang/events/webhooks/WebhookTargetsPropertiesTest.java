package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/**
 * The guard over the whole address space, with seeded random addresses: its verdict on an IPv4
 * address is the arithmetic one of the refused blocks, every IPv6 form that carries an IPv4 address
 * gets that address's verdict, and nothing the JDK calls loopback, any-local, link-local,
 * site-local or multicast ever passes.
 */
class WebhookTargetsPropertiesTest {

  private static final long SEED = 20261206L;

  /** The refused IPv4 blocks as numbers: base and prefix length, written apart from the guard. */
  private static final long[][] REFUSED_IPV4 = {
    {0x00000000L, 8}, // this network
    {0x0A000000L, 8}, // 10/8
    {0x64400000L, 10}, // 100.64/10
    {0x7F000000L, 8}, // 127/8
    {0xA9FE0000L, 16}, // 169.254/16
    {0xAC100000L, 12}, // 172.16/12
    {0xC0000000L, 24}, // 192.0.0/24
    {0xC0A80000L, 16}, // 192.168/16
    {0xC6120000L, 15}, // 198.18/15
    {0xE0000000L, 4}, // 224/4
    {0xF0000000L, 4}, // 240/4
  };

  private static QuickTheory qt() {
    return org.quicktheories.QuickTheory.qt().withFixedSeed(SEED).withExamples(20_000);
  }

  static boolean refusedByArithmetic(int address) {
    long value = address & 0xFFFFFFFFL;
    for (long[] block : REFUSED_IPV4) {
      int shift = 32 - (int) block[1];
      if (value >>> shift == block[0] >>> shift) {
        return true;
      }
    }
    return false;
  }

  static byte[] ipv4(int address) {
    return ByteBuffer.allocate(4).putInt(address).array();
  }

  static byte[] embedded(byte[] prefix, int offset, byte[] ipv4) {
    byte[] ipv6 = new byte[16];
    System.arraycopy(prefix, 0, ipv6, 0, prefix.length);
    System.arraycopy(ipv4, 0, ipv6, offset, 4);
    return ipv6;
  }

  static InetAddress inet(byte[] bytes) throws UnknownHostException {
    return bytes.length == 16
        ? Inet6Address.getByAddress(null, bytes, -1)
        : InetAddress.getByAddress(bytes);
  }

  @Test
  void anIpv4AddressIsRefusedExactlyWhenItLiesInARefusedBlock() {
    qt().forAll(integers().all())
        .checkAssert(
            address ->
                assertThat(WebhookTargets.refusalOf(ipv4(address)).isPresent())
                    .as("%s", (Object) ipv4String(address))
                    .isEqualTo(refusedByArithmetic(address)));
  }

  @Test
  void everyIpv6FormOfAnIpv4Address_getsThatAddressesVerdict() {
    byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};
    byte[] nat64 = {0, 0x64, (byte) 0xff, (byte) 0x9b};
    byte[] sixToFour = {0x20, 0x02};
    qt().forAll(integers().all())
        .checkAssert(
            address -> {
              byte[] v4 = ipv4(address);
              boolean refused = WebhookTargets.refusalOf(v4).isPresent();
              assertThat(WebhookTargets.refusalOf(embedded(mapped, 12, v4)).isPresent())
                  .as("::ffff:%s", ipv4String(address))
                  .isEqualTo(refused);
              assertThat(WebhookTargets.refusalOf(embedded(nat64, 12, v4)).isPresent())
                  .as("64:ff9b::%s", ipv4String(address))
                  .isEqualTo(refused);
              assertThat(WebhookTargets.refusalOf(embedded(sixToFour, 2, v4)).isPresent())
                  .as("2002 of %s", ipv4String(address))
                  .isEqualTo(refused);
            });
  }

  @Test
  void nothingTheJdkCallsLocalOrMulticastPasses_inIpv4OrIpv6() {
    qt().forAll(longs().all(), longs().all(), integers().all())
        .checkAssert(
            (high, low, v4) -> {
              byte[] v6 = ByteBuffer.allocate(16).putLong(high).putLong(low).array();
              for (byte[] bytes : new byte[][] {v6, ipv4(v4)}) {
                InetAddress address = unchecked(bytes);
                if (address.isLoopbackAddress()
                    || address.isAnyLocalAddress()
                    || address.isLinkLocalAddress()
                    || address.isSiteLocalAddress()
                    || address.isMulticastAddress()) {
                  assertThat(WebhookTargets.refusalOf(address)).as("%s", address).isPresent();
                }
              }
            });
  }

  @Test
  void uniqueLocalAndMulticastIpv6AreRefused_globalUnicastOutside6to4Passes() {
    qt().forAll(longs().all(), longs().all())
        .checkAssert(
            (high, low) -> {
              byte[] bytes = ByteBuffer.allocate(16).putLong(high).putLong(low).array();
              byte[] uniqueLocal = bytes.clone();
              uniqueLocal[0] = (byte) (0xfc | (bytes[0] & 1));
              assertThat(WebhookTargets.refusalOf(uniqueLocal)).isPresent();
              byte[] multicast = bytes.clone();
              multicast[0] = (byte) 0xff;
              assertThat(WebhookTargets.refusalOf(multicast)).isPresent();
              byte[] global = bytes.clone();
              global[0] = (byte) (0x20 | (bytes[0] & 0x1f));
              if (!(global[0] == 0x20 && global[1] == 0x02)) {
                assertThat(WebhookTargets.refusalOf(global)).as("%s", unchecked(global)).isEmpty();
              }
            });
  }

  @Test
  void aHostIsAllowedOnlyWhenEveryAddressItResolvesToIs() {
    URI url = URI.create("https://subscriber.example/hooks");
    qt().forAll(integers().all(), integers().all())
        .checkAssert(
            (first, second) -> {
              InetAddress[] addresses = {unchecked(ipv4(first)), unchecked(ipv4(second))};
              boolean allowed =
                  WebhookTargets.check(url, WebhookTargets.Policy.STRICT, host -> addresses)
                      .allowed();
              assertThat(allowed)
                  .isEqualTo(!refusedByArithmetic(first) && !refusedByArithmetic(second));
            });
  }

  private static InetAddress unchecked(byte[] bytes) {
    try {
      return inet(bytes);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static String ipv4String(int address) {
    return unchecked(ipv4(address)).getHostAddress();
  }
}
