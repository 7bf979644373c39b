package com.banhang.gateway.sandbox.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.gateway.sandbox.charge.ChargeCommitHook;
import com.banhang.gateway.sandbox.charge.ChargeRepository;
import com.banhang.gateway.sandbox.charge.ChargeRequest;
import com.banhang.gateway.sandbox.charge.ChargeResult;
import com.banhang.gateway.sandbox.charge.ChargeService;
import com.banhang.gateway.sandbox.fault.FaultControl;
import com.banhang.gateway.sandbox.fault.FaultSettings;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The lookup by charge id, on the resource itself (no server): the charge, or the JSON 404. */
class ChargesResourceTest {

  private final ChargesResource resource = new ChargesResource();

  ChargesResourceTest() {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:resource-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    dataSource.setUser("sa");
    ChargeRepository repository = new ChargeRepository(dataSource);
    repository.createSchemaIfAbsent();
    resource.charges =
        new ChargeService(
            repository,
            new FaultControl(FaultSettings.NONE),
            Duration.ofHours(24),
            ChargeCommitHook.NONE);
  }

  @Test
  void aKnownIdAnswersTheChargeAsTheKeyLookupDoes() {
    ChargeResult.Created created =
        (ChargeResult.Created)
            resource.charges.charge(
                "key-1", new ChargeRequest(1_250_000L, "VND", "order-1", "pm_card_declined"));

    Response byId = resource.findById(created.charge().id());

    assertThat(byId.getStatus()).isEqualTo(200);
    assertThat(byId.getEntity()).isEqualTo(ChargeJson.of(created.charge()));
    assertThat(resource.findByKey("key-1").getEntity()).isEqualTo(byId.getEntity());
  }

  @Test
  void anUnknownIdIsA404NoSuchCharge() {
    Response missing = resource.findById("ch_unknown");

    assertThat(missing.getStatus()).isEqualTo(404);
    assertThat(missing.getEntity())
        .isInstanceOfSatisfying(
            ApiError.class, error -> assertThat(error.error()).isEqualTo("no_such_charge"));
  }
}
