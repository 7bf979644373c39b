package com.banhang.gateway.sandbox.charge;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** The body of {@code POST /v1/charges}, with its rules as Bean Validation constraints. */
public class ChargeRequest {

  @NotNull @Positive private Long amount;

  /**
   * Any ISO 4217 shaped code: the sandbox, like a real processor's test mode, does not convert
   * money.
   */
  @NotNull
  @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 currency code such as VND")
  private String currency;

  @NotNull
  @Size(min = 1, max = 128)
  private String orderReference;

  /**
   * Test card tokens only ({@code pm_card_ok}, {@code pm_card_declined}, ...): no real card data,
   * ever.
   */
  @NotNull
  @Pattern(
      regexp = "pm_card_[A-Za-z0-9_]{1,100}",
      message = "must be a test card token such as pm_card_ok")
  private String paymentMethod;

  public ChargeRequest() {}

  public ChargeRequest(Long amount, String currency, String orderReference, String paymentMethod) {
    this.amount = amount;
    this.currency = currency;
    this.orderReference = orderReference;
    this.paymentMethod = paymentMethod;
  }

  public Long getAmount() {
    return amount;
  }

  public void setAmount(Long amount) {
    this.amount = amount;
  }

  public String getCurrency() {
    return currency;
  }

  public void setCurrency(String currency) {
    this.currency = currency;
  }

  public String getOrderReference() {
    return orderReference;
  }

  public void setOrderReference(String orderReference) {
    this.orderReference = orderReference;
  }

  public String getPaymentMethod() {
    return paymentMethod;
  }

  public void setPaymentMethod(String paymentMethod) {
    this.paymentMethod = paymentMethod;
  }
}
