package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guard against server-side request forgery, address by address: every kind of address a
 * webhook must never reach, in IPv4 and in the IPv6 forms that carry one, and the public addresses
 * right beside each refused block, which it must let through.
 */
class WebhookTargetsTest {

  /** An IPv6 address as sixteen bytes, even for the IPv4-mapped forms Java would turn into IPv4. */
  static InetAddress ipv6(String literal) throws UnknownHostException {
    byte[] bytes = InetAddress.getByName(literal).getAddress();
    if (bytes.length == 4) {
      bytes = AddressBlock.mapped(bytes);
    }
    return Inet6Address.getByAddress(null, bytes, -1);
  }

  static InetAddress address(String literal) throws UnknownHostException {
    return literal.contains(":") ? ipv6(literal) : InetAddress.getByName(literal);
  }

  /** A resolver that answers the given address for any host. */
  static WebhookTargets.Resolver resolvingTo(InetAddress... addresses) {
    return host -> addresses;
  }

  @ParameterizedTest(name = "{0} is refused: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "127.0.0.1         | loopback",
        "127.255.255.254   | loopback",
        "0.0.0.0           | any-local",
        "0.1.2.3           | this network",
        "10.0.0.1          | private",
        "10.255.255.255    | private",
        "172.16.0.1        | private",
        "172.31.255.255    | private",
        "192.168.0.1       | private",
        "192.168.255.255   | private",
        "100.64.0.1        | carrier-grade NAT",
        "100.127.255.255   | carrier-grade NAT",
        "169.254.169.254   | link-local, the cloud metadata service",
        "169.254.0.1       | link-local",
        "192.0.0.8         | IETF",
        "198.18.0.1        | benchmarking",
        "198.19.255.255    | benchmarking",
        "224.0.0.1         | multicast",
        "239.255.255.250   | multicast",
        "240.0.0.1         | reserved",
        "255.255.255.255   | broadcast",
        "::1               | loopback",
        "::                | unspecified",
        "fe80::1           | link-local",
        "febf:ffff::1      | link-local",
        "fec0::1           | site-local",
        "fc00::1           | unique local",
        "fd12:3456:789a::1 | unique local",
        "ff02::1           | multicast",
        "ff05::1:3         | multicast",
        "::ffff:127.0.0.1  | IPv4-mapped form of an IPv4 address: loopback",
        "::ffff:10.1.2.3   | IPv4-mapped form of an IPv4 address: private",
        "::ffff:169.254.169.254 | IPv4-mapped form of an IPv4 address: link-local",
        "::ffff:100.64.0.9 | IPv4-mapped form of an IPv4 address: carrier-grade NAT",
        "::ffff:192.168.1.1 | IPv4-mapped form of an IPv4 address: private",
        "::127.0.0.1       | IPv4-compatible form of an IPv4 address: loopback",
        "::10.0.0.1        | IPv4-compatible form of an IPv4 address: private",
        "64:ff9b::a9fe:a9fe | NAT64 form of an IPv4 address: link-local",
        "64:ff9b::7f00:1   | NAT64 form of an IPv4 address: loopback",
        "2002:a00:1::      | 6to4 form of an IPv4 address: private",
        "2002:7f00:1::1    | 6to4 form of an IPv4 address: loopback",
      })
  void aForbiddenAddressIsRefused_withItsKindNamed(String literal, String kind) throws Exception {
    InetAddress address = address(literal);

    assertThat(WebhookTargets.refusalOf(address))
        .hasValueSatisfying(why -> assertThat(why).contains(kind));
    WebhookTargets.Verdict verdict =
        WebhookTargets.check(
            URI.create("https://subscriber.example/hooks"),
            WebhookTargets.Policy.STRICT,
            resolvingTo(address));
    assertThat(verdict.outcome()).isEqualTo(WebhookTargets.Outcome.REFUSED);
    assertThat(verdict.reason()).contains("subscriber.example resolves to", kind);
  }

  @ParameterizedTest(name = "{0} is allowed")
  @ValueSource(
      strings = {
        "93.184.216.34",
        "8.8.8.8",
        "1.1.1.1",
        "9.255.255.255",
        "11.0.0.0",
        "100.63.255.255",
        "100.128.0.0",
        "126.255.255.255",
        "128.0.0.0",
        "169.253.255.255",
        "169.255.0.0",
        "172.15.255.255",
        "172.32.0.0",
        "192.167.255.255",
        "192.169.0.0",
        "198.17.255.255",
        "198.20.0.0",
        "223.255.255.255",
        "2606:4700:4700::1111",
        "2001:4860:4860::8888",
        "fbff:ffff::1",
        "fe00::1",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "2002:808:808::1",
      })
  void aPublicUnicastAddressIsAllowed(String literal) throws Exception {
    InetAddress address = address(literal);

    assertThat(WebhookTargets.refusalOf(address)).isEmpty();
    assertThat(
            WebhookTargets.check(
                    URI.create("https://subscriber.example/hooks"),
                    WebhookTargets.Policy.STRICT,
                    resolvingTo(address))
                .allowed())
        .isTrue();
  }

  @Test
  void theIpv4MappedFormsAreSixteenBytes_notJavasIpv4() throws Exception {
    // Without this the mapped rows above would test IPv4 twice.
    assertThat(ipv6("::ffff:127.0.0.1")).isInstanceOf(Inet6Address.class);
    assertThat(ipv6("::ffff:127.0.0.1").getAddress()).hasSize(16);
  }

  @Test
  void aHostIsRefusedWhenAnyOfItsAddressesIs_notOnlyTheFirst() throws Exception {
    WebhookTargets.Verdict verdict =
        WebhookTargets.check(
            URI.create("https://mixed.example/hooks"),
            WebhookTargets.Policy.STRICT,
            resolvingTo(InetAddress.getByName("93.184.216.34"), InetAddress.getByName("10.0.0.7")));

    assertThat(verdict.outcome()).isEqualTo(WebhookTargets.Outcome.REFUSED);
    assertThat(verdict.reason()).contains("10.0.0.7", "private");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://subscriber.example/hooks",
        "ftp://subscriber.example/",
        "file:///etc/passwd"
      })
  void onlyHttpsIsAllowed(String url) {
    WebhookTargets.Verdict verdict =
        WebhookTargets.check(
            URI.create(url),
            WebhookTargets.Policy.STRICT,
            host -> {
              throw new AssertionError("a refused scheme is not resolved");
            });

    assertThat(verdict.outcome()).isEqualTo(WebhookTargets.Outcome.REFUSED);
    assertThat(verdict.reason()).contains("https");
  }

  @Test
  void aUrlWithoutHostIsRefused() {
    assertThat(
            WebhookTargets.check(
                    URI.create("https:///hooks"), WebhookTargets.Policy.STRICT, resolvingTo())
                .outcome())
        .isEqualTo(WebhookTargets.Outcome.REFUSED);
  }

  @Test
  void localhostAndLiteralsAreCheckedByWhatTheSystemResolves() {
    for (String url :
        new String[] {
          "https://localhost/hooks",
          "https://127.0.0.1:8443/hooks",
          "https://[::1]/hooks",
          "https://[::ffff:169.254.169.254]/latest/meta-data",
          "https://169.254.169.254/latest/meta-data",
        }) {
      assertThat(
              WebhookTargets.check(
                      URI.create(url),
                      WebhookTargets.Policy.STRICT,
                      WebhookTargets.Resolver.system())
                  .outcome())
          .as(url)
          .isEqualTo(WebhookTargets.Outcome.REFUSED);
    }
  }

  @Test
  void anUnresolvableHostIsNeitherAllowedNorRefused_itIsAFailedAttempt() {
    WebhookTargets.Verdict verdict =
        WebhookTargets.check(
            URI.create("https://nowhere.invalid/hooks"),
            WebhookTargets.Policy.STRICT,
            host -> {
              throw new UnknownHostException(host);
            });

    assertThat(verdict.outcome()).isEqualTo(WebhookTargets.Outcome.UNRESOLVED);
    assertThat(verdict.reason()).contains("nowhere.invalid");
  }

  @Test
  void theDevelopmentSwitchesLiftEachHalfOfTheGuard() throws Exception {
    URI plainLoopback = URI.create("http://127.0.0.1:8080/hooks");
    URI secureLoopback = URI.create("https://127.0.0.1:8443/hooks");
    URI plainPublic = URI.create("http://subscriber.example/hooks");
    WebhookTargets.Resolver loopback = resolvingTo(InetAddress.getByName("127.0.0.1"));
    WebhookTargets.Resolver publicAddress = resolvingTo(InetAddress.getByName("93.184.216.34"));
    Map<WebhookTargets.Policy, boolean[]> expected =
        Map.of(
            WebhookTargets.Policy.STRICT,
            new boolean[] {false, false, false},
            new WebhookTargets.Policy(true, false),
            new boolean[] {false, false, true},
            new WebhookTargets.Policy(false, true),
            new boolean[] {false, true, false},
            new WebhookTargets.Policy(true, true),
            new boolean[] {true, true, true});

    expected.forEach(
        (policy, allowed) -> {
          assertThat(WebhookTargets.check(plainLoopback, policy, loopback).allowed())
              .as("%s, %s", policy, plainLoopback)
              .isEqualTo(allowed[0]);
          assertThat(WebhookTargets.check(secureLoopback, policy, loopback).allowed())
              .as("%s, %s", policy, secureLoopback)
              .isEqualTo(allowed[1]);
          assertThat(WebhookTargets.check(plainPublic, policy, publicAddress).allowed())
              .as("%s, %s", policy, plainPublic)
              .isEqualTo(allowed[2]);
        });
  }

  @Test
  void everyBlockNamesItsCidr_andTheBlocksParseAsWritten() {
    assertThat(WebhookTargets.FORBIDDEN_IPV4)
        .allSatisfy(block -> assertThat(block.prefix()).hasSize(4));
    assertThat(WebhookTargets.FORBIDDEN_IPV6)
        .allSatisfy(block -> assertThat(block.prefix()).hasSize(16));
    assertThat(AddressBlock.of("172.16.0.0/12", "x").contains(new byte[] {(byte) 172, 31, 0, 1}))
        .isTrue();
    assertThat(AddressBlock.of("172.16.0.0/12", "x").contains(new byte[] {(byte) 172, 32, 0, 1}))
        .isFalse();
  }
}
