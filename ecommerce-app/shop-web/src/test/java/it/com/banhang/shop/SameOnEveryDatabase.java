package it.com.banhang.shop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A class of the HTTP suite whose outcome does not depend on which database the shop runs on: what
 * it proves lives above the store (the gate, the gateway's faults, reconciliation's decisions, the
 * problem documents), so one run proves it. It runs on PostgreSQL, the database closest to
 * production, and on SQL Server when one is given; {@code it-h2} leaves it out ({@code
 * excludedGroups}). A class without this tag runs on every database: the store's own SQL, locking,
 * durability after a kill, and the embedded default's smoke path (docs/testing.md, "Which database
 * runs what").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(SameOnEveryDatabase.TAG)
public @interface SameOnEveryDatabase {

  /** The JUnit tag that it-h2's failsafe configuration excludes. */
  String TAG = "same-on-every-database";
}
