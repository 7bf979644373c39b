package com.banhang.events.webhooks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A block of IP addresses in CIDR notation ({@code 10.0.0.0/8}, {@code fc00::/7}), matched on an
 * address's raw bytes, so that an IPv4 block never matches an IPv6 address nor the other way round.
 */
record AddressBlock(String cidr, String why, byte[] prefix, int bits) {

  /** The block {@code cidr}, a literal address and a prefix length; {@code why} names it. */
  static AddressBlock of(String cidr, String why) {
    int slash = cidr.indexOf('/');
    try {
      // A literal: no name is looked up.
      byte[] prefix = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
      if (cidr.contains(":") && prefix.length == 4) {
        // Java reads an IPv4-mapped literal as IPv4: rebuild the sixteen bytes.
        prefix = mapped(prefix);
      }
      int bits = Integer.parseInt(cidr.substring(slash + 1));
      if (bits < 0 || bits > prefix.length * 8) {
        throw new IllegalArgumentException("prefix length out of range: " + cidr);
      }
      return new AddressBlock(cidr, why, prefix, bits);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not a CIDR block: " + cidr, e);
    }
  }

  /** Whether {@code address} (4 or 16 bytes) lies in this block. */
  boolean contains(byte[] address) {
    if (address.length != prefix.length) {
      return false;
    }
    int whole = bits / 8;
    for (int i = 0; i < whole; i++) {
      if (address[i] != prefix[i]) {
        return false;
      }
    }
    int rest = bits % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xff << (8 - rest)) & 0xff;
    return (address[whole] & mask) == (prefix[whole] & mask);
  }

  static byte[] mapped(byte[] ipv4) {
    byte[] ipv6 = new byte[16];
    ipv6[10] = (byte) 0xff;
    ipv6[11] = (byte) 0xff;
    System.arraycopy(ipv4, 0, ipv6, 12, 4);
    return ipv6;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof AddressBlock block
        && block.bits == bits
        && Arrays.equals(block.prefix, prefix);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(prefix) + bits;
  }

  @Override
  public String toString() {
    return cidr + " (" + why + ")";
  }
}
