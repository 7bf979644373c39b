package it.com.banhang.shop.faults;

import com.banhang.events.EventTransport;
import com.banhang.events.OutboxEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.logging.Logger;

/**
 * Test only, never in the shipped WAR: the relay's first send of an event whose data contains
 * {@value #MARKER} (an order with such a SKU) never completes, so that ShopCrashIT can kill the
 * shop's JVM while the event is committed, claimed and not yet published, and see it published
 * after the restart. Every other send, and every later send of that event, passes at once. As one
 * more transport, it holds the event back from every other transport too (the relay counts an event
 * published only when all of them took it).
 */
@ApplicationScoped
public class HoldFirstSend implements EventTransport {

  /** What an order's SKU contains to have its event's first send held. */
  public static final String MARKER = "HOLD-FIRST-SEND";

  private static final Logger LOG = Logger.getLogger(HoldFirstSend.class.getName());

  @Override
  public String name() {
    return "it-hold-first-send";
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public CompletionStage<Void> publish(OutboxEvent event) {
    if (event.attempts() == 1 && event.payload().contains(MARKER)) {
      LOG.warning(() -> "holding the first send of event " + event.id() + " (test fault)");
      return new CompletableFuture<>();
    }
    return CompletableFuture.completedFuture(null);
  }
}
