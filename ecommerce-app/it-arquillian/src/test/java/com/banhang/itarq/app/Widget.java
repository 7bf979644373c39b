package com.banhang.itarq.app;

/** A row of the business table, as the widget resource answers it (serialised by JSON-B). */
public record Widget(String id, String name) {}
