package com.banhang.events;

import java.util.ArrayList;
import java.util.List;

/**
 * An outbox for the unit tests of the modules that record events: it keeps what it is given, in
 * order, instead of writing a table (published in this module's test-jar).
 */
public class RecordingOutbox extends Outbox {

  public final List<NewEvent> recorded = new ArrayList<>();

  @Override
  public void record(NewEvent event) {
    recorded.add(event);
  }

  /** The types recorded, in order. */
  public List<String> types() {
    return recorded.stream().map(NewEvent::type).toList();
  }
}
