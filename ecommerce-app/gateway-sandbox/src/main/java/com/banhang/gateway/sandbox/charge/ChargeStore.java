package com.banhang.gateway.sandbox.charge;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import javax.sql.DataSource;

/**
 * Connects the {@link ChargeRepository} to the server's datasource {@code jdbc/gateway}: the
 * sandbox's own H2 database when it runs standalone, whatever the hosting server defines when it is
 * deployed beside the shop.
 */
@ApplicationScoped
public class ChargeStore {

  /** The JNDI name every server that runs the sandbox must define. */
  public static final String DATASOURCE = "jdbc/gateway";

  @Resource(lookup = DATASOURCE)
  DataSource dataSource;

  /** What a new charge writes in its transaction: its webhook event. */
  @Inject ChargeCommitHook commitHook;

  /** The repository on {@code jdbc/gateway}; cheap to create, it holds no connection. */
  @Produces
  public ChargeRepository repository() {
    return new ChargeRepository(dataSource, commitHook);
  }
}
