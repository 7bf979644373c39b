package it.com.banhang.shop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * As {@link SameOnEveryDatabase}, a class whose outcome does not depend on the database, so one run
 * proves it; but that run is the H2 suite's instead of the PostgreSQL suite's. The two suites run
 * side by side, and the build lasts as long as the longer one: a class tagged here moves its time
 * from the PostgreSQL suite, which runs every database-independent class, to the H2 suite beside it
 * ({@code it-postgresql}'s {@code excludedGroups}; docs/testing.md, "Which database runs what").
 * {@code it-sqlserver} runs it too, as it runs every class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunOnceOnH2.TAG)
public @interface RunOnceOnH2 {

  /** The JUnit tag that it-postgresql's failsafe configuration excludes. */
  String TAG = "run-once-on-h2";
}
