package com.banhang.idempotency.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A small JSON model for the fingerprint properties: documents are generated from a seeded {@link
 * Random} and then written in many spellings that mean the same thing (member order, whitespace,
 * number spelling, string escapes), or changed in exactly one place.
 *
 * <p>Numbers are integers up to 10^12 and decimals of up to six fraction digits (at most 15
 * significant digits), so each distinct value is a distinct IEEE-754 double, as RFC 8785 reads
 * them.
 */
final class RandomJson {

  sealed interface Value permits Obj, Arr, Str, Num, Lit {}

  /** Members in generation order, names unique. */
  record Obj(List<Member> members) implements Value {}

  record Member(String name, Value value) {}

  record Arr(List<Value> items) implements Value {}

  record Str(String text) implements Value {}

  record Num(BigDecimal value) implements Value {}

  /** {@code null}, {@code true} or {@code false}. */
  record Lit(String token) implements Value {}

  /** How to write a document; every option keeps its meaning. */
  record Style(boolean shuffle, boolean whitespace, boolean respellNumbers, boolean escapeStrings) {
    static final Style PLAIN = new Style(false, false, false, false);
    static final Style EVERYTHING = new Style(true, true, true, true);
  }

  private final Random random;
  private final boolean negativeNumbers;

  RandomJson(long seed) {
    this(seed, true);
  }

  RandomJson(long seed, boolean negativeNumbers) {
    this.random = new Random(seed);
    this.negativeNumbers = negativeNumbers;
  }

  // ---------------------------------------------------------------- generation

  /** A document whose top level is an object, as request bodies are. */
  Obj document() {
    return object(0);
  }

  Value value(int depth) {
    int kind = random.nextInt(depth >= 3 ? 4 : 6);
    return switch (kind) {
      case 0 -> new Str(string(12));
      case 1 -> new Num(number());
      case 2 -> new Lit(List.of("null", "true", "false").get(random.nextInt(3)));
      case 3 -> new Num(number());
      case 4 -> object(depth + 1);
      default -> array(depth + 1);
    };
  }

  private Obj object(int depth) {
    int size = random.nextInt(6);
    Set<String> names = new HashSet<>();
    List<Member> members = new ArrayList<>();
    while (members.size() < size) {
      String name = random.nextInt(3) == 0 ? string(6) : "m" + random.nextInt(50);
      if (names.add(name)) {
        members.add(new Member(name, value(depth)));
      }
    }
    return new Obj(members);
  }

  private Arr array(int depth) {
    int size = random.nextInt(5);
    List<Value> items = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      items.add(value(depth));
    }
    return new Arr(items);
  }

  BigDecimal number() {
    BigDecimal value =
        random.nextBoolean()
            ? BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000L)
            : BigDecimal.valueOf(random.nextInt(1_000_000_000), 1 + random.nextInt(6));
    if (!negativeNumbers) {
      value = value.abs();
    }
    return value.stripTrailingZeros();
  }

  /** Unicode text: ASCII with the characters JSON escapes, controls, Latin-1, BMP and astral. */
  String string(int maxLength) {
    int length = random.nextInt(maxLength + 1);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int bucket = random.nextInt(10);
      int codePoint =
          switch (bucket) {
            case 0 -> "\"\\/".charAt(random.nextInt(3));
            case 1 -> random.nextInt(0x20);
            case 2 -> 0x7F + random.nextInt(0x81);
            case 3 -> 0x100 + random.nextInt(0xD800 - 0x100);
            case 4 -> 0xE000 + random.nextInt(0xFFFE - 0xE000);
            case 5 -> 0x10000 + random.nextInt(0x110000 - 0x10000);
            default -> 0x20 + random.nextInt(0x5F);
          };
      text.appendCodePoint(codePoint);
    }
    return text.toString();
  }

  // ---------------------------------------------------------------- changes

  /**
   * The document with exactly one leaf of the given kind replaced; null when the document has no
   * such leaf.
   */
  Value changeOneLeaf(Value document, Class<? extends Value> kind) {
    List<Value> leaves = new ArrayList<>();
    collect(document, kind, leaves);
    if (leaves.isEmpty()) {
      return null;
    }
    Value target = leaves.get(random.nextInt(leaves.size()));
    return replace(document, target, this::differentLeaf);
  }

  private Value differentLeaf(Value leaf) {
    while (true) {
      Value other;
      if (leaf instanceof Str) {
        other = new Str(string(12));
      } else if (leaf instanceof Num) {
        other = new Num(number());
      } else if (leaf instanceof Lit) {
        other = new Lit(List.of("null", "true", "false").get(random.nextInt(3)));
      } else {
        throw new IllegalArgumentException(leaf.toString());
      }
      if (!sameLeaf(leaf, other)) {
        return other;
      }
    }
  }

  private static boolean sameLeaf(Value a, Value b) {
    if (a instanceof Num x && b instanceof Num y) {
      return x.value().compareTo(y.value()) == 0;
    }
    return a.equals(b);
  }

  /** The document with one member added to one of its objects (the top level included). */
  Value addOneMember(Obj document) {
    List<Value> objects = new ArrayList<>();
    collect(document, Obj.class, objects);
    Value target = objects.get(random.nextInt(objects.size()));
    return replace(
        document,
        target,
        o -> {
          List<Member> members = new ArrayList<>(((Obj) o).members());
          String name = "added-" + random.nextInt(1000);
          while (hasMember(members, name)) {
            name = name + "'";
          }
          members.add(random.nextInt(members.size() + 1), new Member(name, value(3)));
          return new Obj(members);
        });
  }

  /** The document with one member of one of its objects removed; null when all are empty. */
  Value removeOneMember(Obj document) {
    List<Value> objects = new ArrayList<>();
    collect(document, Obj.class, objects);
    objects.removeIf(o -> ((Obj) o).members().isEmpty());
    if (objects.isEmpty()) {
      return null;
    }
    Value target = objects.get(random.nextInt(objects.size()));
    return replace(
        document,
        target,
        o -> {
          List<Member> members = new ArrayList<>(((Obj) o).members());
          members.remove(random.nextInt(members.size()));
          return new Obj(members);
        });
  }

  private static boolean hasMember(List<Member> members, String name) {
    return members.stream().anyMatch(m -> m.name().equals(name));
  }

  private static void collect(Value value, Class<? extends Value> kind, List<Value> found) {
    if (kind.isInstance(value)) {
      found.add(value);
    }
    if (value instanceof Obj o) {
      o.members().forEach(m -> collect(m.value(), kind, found));
    } else if (value instanceof Arr a) {
      a.items().forEach(i -> collect(i, kind, found));
    }
  }

  /** Replaces the one node that is {@code target} (by identity). */
  private static Value replace(Value value, Value target, UnaryOperator<Value> change) {
    if (value == target) {
      return change.apply(value);
    }
    if (value instanceof Obj o) {
      List<Member> members = new ArrayList<>();
      o.members()
          .forEach(m -> members.add(new Member(m.name(), replace(m.value(), target, change))));
      return new Obj(members);
    }
    if (value instanceof Arr a) {
      List<Value> items = new ArrayList<>();
      a.items().forEach(i -> items.add(replace(i, target, change)));
      return new Arr(items);
    }
    return value;
  }

  // ---------------------------------------------------------------- writing

  String write(Value value, Style style) {
    StringBuilder out = new StringBuilder();
    space(out, style);
    write(value, style, out);
    space(out, style);
    return out.toString();
  }

  private void write(Value value, Style style, StringBuilder out) {
    if (value instanceof Obj o) {
      List<Member> members = new ArrayList<>(o.members());
      if (style.shuffle()) {
        Collections.shuffle(members, random);
      }
      out.append('{');
      for (int i = 0; i < members.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        space(out, style);
        writeString(members.get(i).name(), style, out);
        space(out, style);
        out.append(':');
        space(out, style);
        write(members.get(i).value(), style, out);
        space(out, style);
      }
      out.append('}');
    } else if (value instanceof Arr a) {
      out.append('[');
      for (int i = 0; i < a.items().size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        space(out, style);
        write(a.items().get(i), style, out);
        space(out, style);
      }
      out.append(']');
    } else if (value instanceof Str s) {
      writeString(s.text(), style, out);
    } else if (value instanceof Num n) {
      out.append(style.respellNumbers() ? spell(n.value()) : n.value().toPlainString());
    } else {
      out.append(((Lit) value).token());
    }
  }

  private void space(StringBuilder out, Style style) {
    if (style.whitespace()) {
      int count = random.nextInt(3);
      for (int i = 0; i < count; i++) {
        out.append(List.of(" ", "\t", "\n", "\r\n", "   ").get(random.nextInt(5)));
      }
    }
  }

  /** Another spelling of the same number: trailing zeros, exponents, a minus zero. */
  String spell(BigDecimal value) {
    if (value.signum() == 0) {
      return List.of("0", "-0", "0.0", "0e0", "-0.000E+3", "0E-2").get(random.nextInt(6));
    }
    return switch (random.nextInt(4)) {
      case 0 -> value.toPlainString();
      case 1 -> {
        String plain = value.toPlainString();
        yield (plain.contains(".") ? plain : plain + ".") + "0".repeat(1 + random.nextInt(3));
      }
      default -> {
        int shift = random.nextInt(9) - 4;
        String mantissa = value.movePointLeft(shift).toPlainString();
        String e = random.nextBoolean() ? "e" : "E";
        String sign = shift < 0 ? "-" : random.nextBoolean() ? "+" : "";
        yield mantissa + e + sign + Math.abs(shift);
      }
    };
  }

  private void writeString(String text, Style style, StringBuilder out) {
    out.append('"');
    text.codePoints()
        .forEach(
            cp -> {
              if (style.escapeStrings() && random.nextBoolean()) {
                out.append(anyEscape(cp));
              } else {
                out.append(requiredEscape(cp));
              }
            });
    out.append('"');
  }

  /** The character as RFC 8785 s3.2.2.2 writes it: raw unless JSON requires an escape. */
  static String requiredEscape(int cp) {
    return switch (cp) {
      case '"' -> "\\\"";
      case '\\' -> "\\\\";
      case '\b' -> "\\b";
      case '\f' -> "\\f";
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      default -> cp < 0x20 ? String.format("\\u%04x", cp) : new String(Character.toChars(cp));
    };
  }

  private String anyEscape(int cp) {
    if (cp == '/' && random.nextBoolean()) {
      return "\\/";
    }
    StringBuilder escaped = new StringBuilder();
    for (char unit : Character.toChars(cp)) {
      escaped.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) unit));
    }
    return escaped.toString();
  }

  // ---------------------------------------------------------------- reference canonical form

  /**
   * RFC 8785 written out for this model: members sorted by UTF-16 code units, strings with only the
   * required escapes, numbers in ECMAScript form (here always plain decimal: no generated value
   * needs an exponent).
   */
  static String canonical(Value value) {
    if (value instanceof Obj o) {
      List<Member> members = new ArrayList<>(o.members());
      members.sort(Comparator.comparing(Member::name));
      StringBuilder out = new StringBuilder("{");
      for (Member m : members) {
        if (out.length() > 1) {
          out.append(',');
        }
        out.append(canonical(new Str(m.name()))).append(':').append(canonical(m.value()));
      }
      return out.append('}').toString();
    }
    if (value instanceof Arr a) {
      StringBuilder out = new StringBuilder("[");
      for (Value item : a.items()) {
        if (out.length() > 1) {
          out.append(',');
        }
        out.append(canonical(item));
      }
      return out.append(']').toString();
    }
    if (value instanceof Str s) {
      StringBuilder out = new StringBuilder("\"");
      s.text().codePoints().forEach(cp -> out.append(requiredEscape(cp)));
      return out.append('"').toString();
    }
    if (value instanceof Num n) {
      return n.value().signum() == 0 ? "0" : n.value().toPlainString();
    }
    return ((Lit) value).token();
  }

  static boolean hasMemberNameWith(Value value, int codePoint) {
    List<Value> objects = new ArrayList<>();
    collect(value, Obj.class, objects);
    return objects.stream()
        .flatMap(o -> ((Obj) o).members().stream())
        .anyMatch(m -> m.name().indexOf(codePoint) >= 0);
  }
}
