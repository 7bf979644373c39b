package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Spans of the gate's phases ({@code idempotency.admit}, {@code idempotency.claim}, {@code
 * idempotency.execute}, {@code idempotency.complete}, {@code idempotency.settle}) with the
 * operation ({@value #OPERATION}) and what the phase decided ({@value #OUTCOME}, the kind of the
 * {@link IdempotencyEvent} it fired, in the words of the metrics' {@code outcome} label). Never the
 * key, the tenant or a body.
 *
 * <p>Through the OpenTelemetry API when the server provides it (the {@code OpenTelemetry} bean of
 * MicroProfile Telemetry; with its SDK off that is a no-op), and as nothing at all otherwise: this
 * class names no OpenTelemetry type, so the library deploys on a server without telemetry, and
 * {@link OpenTelemetryPhaseSpans} is loaded only where the API is there.
 */
@ApplicationScoped
public class PhaseSpans {

  static final String OPERATION = "idempotency.operation";
  static final String OUTCOME = "idempotency.outcome";

  private static final Logger LOG = Logger.getLogger(PhaseSpans.class.getName());

  /** One phase's span, current on this thread until closed. */
  public interface Span extends AutoCloseable {
    /** Marks the span failed with the exception's type (never its message, which may hold data). */
    void failed(Throwable failure);

    @Override
    void close();
  }

  /** Where the spans come from. */
  interface Tracing {
    Span start(String phase, String operation);

    /** Puts {@code outcome} on the current span. */
    void outcome(String outcome);
  }

  static final Tracing NONE =
      new Tracing() {
        @Override
        public Span start(String phase, String operation) {
          return NO_SPAN;
        }

        @Override
        public void outcome(String outcome) {
          // no tracing
        }
      };

  private static final Span NO_SPAN =
      new Span() {
        @Override
        public void failed(Throwable failure) {
          // no tracing
        }

        @Override
        public void close() {
          // no tracing
        }
      };

  private volatile Tracing tracing;

  /**
   * Starts the span of {@code phase} ("claim", ...) for {@code operation}, current until closed.
   */
  public Span start(String phase, String operation) {
    return tracing().start(phase, operation);
  }

  /** Every event of the library is the outcome of the phase whose span is current. */
  void outcome(@Observes IdempotencyEvent event) {
    tracing().outcome(event.kind().name().toLowerCase(Locale.ROOT));
  }

  private Tracing tracing() {
    Tracing known = tracing;
    if (known == null) {
      known = lookUp();
      tracing = known;
    }
    return known;
  }

  private static Tracing lookUp() {
    try {
      Class.forName("io.opentelemetry.api.OpenTelemetry", false, PhaseSpans.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return NONE; // a server without MicroProfile Telemetry
    }
    try {
      Tracing found = OpenTelemetryPhaseSpans.lookUp();
      return found != null ? found : NONE;
    } catch (RuntimeException | LinkageError e) {
      // No CDI container (a unit test) or no OpenTelemetry bean: the phases run untraced.
      LOG.log(Level.FINE, "idempotency phases are not traced", e);
      return NONE;
    }
  }
}
