package com.banhang.shop.orders.rest;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Body of {@code POST /api/v1/orders} (docs/problems.md). Amounts are integers in the currency's
 * minor unit, so that no float ever meets money; the bounds keep every total inside a long.
 */
public record CreateOrderRequest(
    @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as VND")
        String currency,
    @Size(min = 1, max = 64)
        @Pattern(regexp = "[\\x21-\\x7E]+", message = "must be printable ASCII")
        String merchantOrderId,
    @NotNull @Size(min = 1, max = 100) List<@NotNull @Valid Item> items) {

  /** One line: a product, how many, and its unit price. */
  public record Item(
      @NotBlank
          @Size(max = 64)
          @Pattern(
              regexp = "[^\\p{Cc}\\p{Cs}\\x{FFFE}\\x{FFFF}]*",
              message = "must not contain control characters or noncharacters")
          String sku,
      @NotNull @Min(1) @Max(1000) Integer quantity,
      @NotNull @PositiveOrZero @Max(1_000_000_000_000L) Long unitPrice) {}
}
