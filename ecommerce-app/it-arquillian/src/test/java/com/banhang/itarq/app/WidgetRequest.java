package com.banhang.itarq.app;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** A body bound by JSON-B and checked by Bean Validation before the method is invoked. */
public record WidgetRequest(@NotBlank @Size(max = 40) String name, int size) {}
