package com.banhang.shop.admin.rest;

/** {@code offset} and {@code limit} of a paged operator listing, checked once for every listing. */
record PageRequest(int offset, int limit) {

  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 500;

  /** The page asked for, or null when it is out of range (the caller answers 400). */
  static PageRequest of(Integer offset, Integer limit) {
    int from = offset == null ? 0 : offset;
    int size = limit == null ? DEFAULT_LIMIT : limit;
    return from < 0 || size < 1 || size > MAX_LIMIT ? null : new PageRequest(from, size);
  }

  static final String OUT_OF_RANGE = "offset must be >= 0 and limit between 1 and " + MAX_LIMIT;
}
