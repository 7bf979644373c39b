package com.banhang.events.webhooks;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The guard against server-side request forgery: a webhook URL is configuration, and whoever sets
 * it must not be able to make the shop POST to its own network (a database's HTTP port, an admin
 * console, the cloud's metadata service at 169.254.169.254). Before each send the URL's host is
 * resolved and the send is refused when the URL is not https or when any address it resolves to is
 * loopback, any-local, link-local, private (10/8, 172.16/12, 192.168/16), carrier-grade NAT
 * (100.64/10), IPv6 unique-local (fc00::/7) or site-local, multicast, reserved, or an IPv6 form
 * that embeds such an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
 *
 * <p>{@code events.webhooks.allow-http} and {@code events.webhooks.allow-private-targets} lift the
 * two halves of the guard, for development and tests against a receiver on the same machine only.
 *
 * <p>What it cannot do: the HTTP client resolves the host again when it connects, so a name whose
 * DNS answer changes between the two lookups (DNS rebinding) could still reach a refused address.
 * Production deployments should also deny the shop's egress to internal networks at the firewall or
 * through an egress proxy; this guard is the application's own line, not the only one.
 */
public final class WebhookTargets {

  /** What the guard lets through. */
  public record Policy(boolean allowHttp, boolean allowPrivateTargets) {
    /** The production policy: https to public addresses only. */
    public static final Policy STRICT = new Policy(false, false);
  }

  /** Resolves a host name to its addresses; the system's resolver outside tests. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;

    static Resolver system() {
      return InetAddress::getAllByName;
    }
  }

  /** The guard's answer for one URL. */
  public record Verdict(Outcome outcome, String reason) {
    static final Verdict ALLOWED = new Verdict(Outcome.ALLOWED, null);

    public boolean allowed() {
      return outcome == Outcome.ALLOWED;
    }
  }

  /**
   * Whether a URL may be sent to: refused targets are never sent to and their deliveries parked; an
   * unresolved host is an ordinary failed attempt (DNS may be down for a moment).
   */
  public enum Outcome {
    ALLOWED,
    REFUSED,
    UNRESOLVED
  }

  static final List<AddressBlock> FORBIDDEN_IPV4 =
      List.of(
          AddressBlock.of("0.0.0.0/8", "this network, the any-local address"),
          AddressBlock.of("10.0.0.0/8", "private"),
          AddressBlock.of("100.64.0.0/10", "carrier-grade NAT"),
          AddressBlock.of("127.0.0.0/8", "loopback"),
          AddressBlock.of("169.254.0.0/16", "link-local, the cloud metadata service"),
          AddressBlock.of("172.16.0.0/12", "private"),
          AddressBlock.of("192.0.0.0/24", "IETF protocol assignments"),
          AddressBlock.of("192.168.0.0/16", "private"),
          AddressBlock.of("198.18.0.0/15", "network benchmarking"),
          AddressBlock.of("224.0.0.0/4", "multicast"),
          AddressBlock.of("240.0.0.0/4", "reserved, broadcast"));

  static final List<AddressBlock> FORBIDDEN_IPV6 =
      List.of(
          AddressBlock.of("::/128", "unspecified, the any-local address"),
          AddressBlock.of("::1/128", "loopback"),
          AddressBlock.of("fe80::/10", "link-local"),
          AddressBlock.of("fec0::/10", "site-local"),
          AddressBlock.of("fc00::/7", "unique local"),
          AddressBlock.of("ff00::/8", "multicast"));

  /** IPv6 forms that carry an IPv4 address, and where its four bytes sit. */
  private static final List<EmbeddedIpv4> EMBEDDING =
      List.of(
          new EmbeddedIpv4(AddressBlock.of("::ffff:0:0/96", "IPv4-mapped"), 12),
          new EmbeddedIpv4(AddressBlock.of("::/96", "IPv4-compatible"), 12),
          new EmbeddedIpv4(AddressBlock.of("64:ff9b::/96", "NAT64"), 12),
          new EmbeddedIpv4(AddressBlock.of("2002::/16", "6to4"), 2));

  private record EmbeddedIpv4(AddressBlock block, int offset) {}

  private WebhookTargets() {}

  /** Checks {@code url} under {@code policy}, resolving its host with {@code resolver}. */
  public static Verdict check(URI url, Policy policy, Resolver resolver) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("http")) {
      if (!policy.allowHttp()) {
        return refused("not https (events.webhooks.allow-http is for development only)");
      }
    } else if (!scheme.equals("https")) {
      return refused("not an https URL");
    }
    String host = url.getHost();
    if (host == null || host.isEmpty()) {
      return refused("the URL has no host");
    }
    if (policy.allowPrivateTargets()) {
      return Verdict.ALLOWED;
    }
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      return new Verdict(Outcome.UNRESOLVED, "cannot resolve " + host);
    }
    if (addresses == null || addresses.length == 0) {
      return new Verdict(Outcome.UNRESOLVED, "no address for " + host);
    }
    // Every address, not the first: the client may connect to any of them.
    for (InetAddress address : addresses) {
      Optional<String> why = refusalOf(address);
      if (why.isPresent()) {
        return refused(host + " resolves to " + address.getHostAddress() + ", " + why.get());
      }
    }
    return Verdict.ALLOWED;
  }

  /** Why {@code address} may not be sent to, or empty when it is a public unicast address. */
  public static Optional<String> refusalOf(InetAddress address) {
    Optional<String> byBlock = refusalOf(address.getAddress());
    if (byBlock.isPresent()) {
      return byBlock;
    }
    // The JDK's own classification, in case a block above were ever mistyped.
    if (address.isLoopbackAddress()
        || address.isAnyLocalAddress()
        || address.isLinkLocalAddress()
        || address.isSiteLocalAddress()
        || address.isMulticastAddress()) {
      return Optional.of("a loopback, any-local, link-local, site-local or multicast address");
    }
    return Optional.empty();
  }

  /** {@link #refusalOf(InetAddress)} on raw bytes: 4 for IPv4, 16 for IPv6. */
  static Optional<String> refusalOf(byte[] address) {
    List<AddressBlock> blocks = address.length == 4 ? FORBIDDEN_IPV4 : FORBIDDEN_IPV6;
    for (AddressBlock block : blocks) {
      if (block.contains(address)) {
        return Optional.of(block.why() + " (" + block.cidr() + ")");
      }
    }
    if (address.length == 16) {
      for (EmbeddedIpv4 embedding : EMBEDDING) {
        if (embedding.block().contains(address)) {
          byte[] ipv4 = new byte[4];
          System.arraycopy(address, embedding.offset(), ipv4, 0, 4);
          Optional<String> inner = refusalOf(ipv4);
          if (inner.isPresent()) {
            return Optional.of(
                "the " + embedding.block().why() + " form of an IPv4 address: " + inner.get());
          }
        }
      }
    }
    return Optional.empty();
  }

  private static Verdict refused(String reason) {
    return new Verdict(Outcome.REFUSED, reason);
  }
}
