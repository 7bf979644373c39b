/**
 * Plain JDBC on the shop's data source ({@code jdbc/shop}, the one the persistence unit uses, so a
 * statement joins the running JTA transaction): the append-only payment timeline and the operators'
 * payment search, whose statements are written for the three databases at once.
 */
package com.banhang.shop.payments.infrastructure.persistence.jdbc;
