package com.banhang.shop.admin.application;

import com.banhang.shop.payments.api.GatewayEventView;
import com.banhang.shop.payments.api.GatewayEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The events the processor sent the shop by webhook, read for an operator (docs/operations.md,
 * "Gateway events"): each with its verification and what its processing did, filtered by status or
 * by what waits for an operator (parked, or flagged and not marked handled). An operator retries a
 * parked one or marks a flagged one handled through {@link OperatorActions}. Nothing here moves
 * money.
 */
@ApplicationScoped
public class GatewayEventsIn {

  /** The filter of every event, whatever its status. */
  public static final String ALL = "ALL";

  /**
   * The filter of what waits for an operator: parked events (retry them) and flagged ones nobody
   * has marked handled (deal with them at the processor, then mark them).
   */
  public static final String NEEDING_OPERATOR = "NEEDING_OPERATOR";

  @Inject GatewayEvents events;
  @Inject AuditLog audit;

  /** Every filter, in the order the console offers them: what waits first, then all, then each. */
  public static List<String> filters() {
    List<String> filters = new ArrayList<>(List.of(NEEDING_OPERATOR, ALL));
    for (GatewayEventView.Status status : GatewayEventView.Status.values()) {
      filters.add(status.name());
    }
    return List.copyOf(filters);
  }

  /**
   * The filter {@code text} names, in any case: {@value #ALL} when blank, {@value
   * #NEEDING_OPERATOR}, or a status; empty when it names none of these.
   */
  public static Optional<String> filter(String text) {
    if (text == null || text.isBlank()) {
      return Optional.of(ALL);
    }
    String name = text.trim().toUpperCase(Locale.ROOT);
    return filters().contains(name) ? Optional.of(name) : Optional.empty();
  }

  /**
   * Events of {@code filter}, newest delivery first, read by {@code operator}: each read is audited
   * ({@value OperatorActions#READ_GATEWAY_EVENTS}), since it shows customers' charges and payments;
   * a read that cannot be audited fails instead of showing them.
   *
   * @throws IllegalArgumentException for a filter {@link #filter} does not know
   */
  public List<GatewayEventView> page(String operator, String filter, int offset, int limit) {
    String checked = checked(filter);
    List<GatewayEventView> page =
        switch (checked) {
          case NEEDING_OPERATOR -> events.needingOperator(offset, limit);
          case ALL -> events.page(null, offset, limit);
          default -> events.page(checked, offset, limit);
        };
    audit.append(
        operator,
        OperatorActions.READ_GATEWAY_EVENTS,
        null,
        null,
        ActionResult.done(
            "read "
                + page.size()
                + " gateway events ("
                + checked
                + ") from offset "
                + offset
                + " (limit "
                + limit
                + ")"));
    return page;
  }

  /** How many {@link #page} lists in all for {@code filter}. */
  public long count(String filter) {
    String checked = checked(filter);
    return switch (checked) {
      case NEEDING_OPERATOR -> countFlaggedUnhandled() + countParked();
      case ALL -> events.count(null);
      default -> events.count(checked);
    };
  }

  /** Flagged events nobody has marked handled: contradictions an operator must look at. */
  public long countFlaggedUnhandled() {
    return events.countFlaggedUnhandled();
  }

  /** Parked events: processing gave up on them; an operator may retry them. */
  public long countParked() {
    return events.count(GatewayEventView.Status.PARKED.name());
  }

  /** One event, whatever its status; empty when there is no such event. Not audited: no list. */
  public Optional<GatewayEventView> find(String provider, String eventId) {
    return events.find(provider, eventId);
  }

  private static String checked(String filter) {
    return filter(filter)
        .orElseThrow(() -> new IllegalArgumentException("no such gateway event filter: " + filter));
  }
}
