package it.com.banhang.shop;

import com.banhang.shop.client.IntentStore;
import com.banhang.shop.client.PaymentRequest;
import com.banhang.shop.client.RetryPolicy;
import com.banhang.shop.client.ShopClient;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A customer's app in a process of its own, so that {@link ShopClientIT} can kill it with SIGKILL
 * in the middle of a payment: it pays one order as alice through the Java client, keeping its
 * intent in a folder.
 *
 * <p>Arguments: the shop's URL, the intent folder, the order id, the amount.
 */
public final class ClientProcess {

  private ClientProcess() {}

  public static void main(String[] args) {
    ShopClient shop =
        ShopClient.builder()
            .baseUri(args[0])
            .basicAuth("alice", "alice-secret")
            .intentStore(IntentStore.inFolder(Path.of(args[1])))
            .retryPolicy(RetryPolicy.defaults().withDeadline(Duration.ofMinutes(2)))
            .build();
    System.out.println(
        shop.payments()
            .pay(args[2], new PaymentRequest(Long.parseLong(args[3]), "VND", "pm_card_ok")));
  }
}
