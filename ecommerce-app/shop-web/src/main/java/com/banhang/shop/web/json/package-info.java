/**
 * JSON-B as the shop's request bodies need it: strict numbers and strings, and a body read into a
 * record must be a JSON object (docs/problems.md). Depends on JSON-B and Jakarta REST only.
 */
package com.banhang.shop.web.json;
