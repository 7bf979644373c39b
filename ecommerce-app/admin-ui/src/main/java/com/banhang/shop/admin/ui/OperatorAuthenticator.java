package com.banhang.shop.admin.ui;

/**
 * Checks a user name and password against the server's user registry. An interface so that the
 * login view can be tested without a servlet container.
 */
public interface OperatorAuthenticator {

  enum Verdict {
    /** Valid credentials of a user in the operator role. */
    OPERATOR,
    /** Valid credentials, but not an operator (a customer). */
    NOT_OPERATOR,
    /** Unknown user or wrong password. */
    INVALID_CREDENTIALS,
    /**
     * Not checked: too many recent failed logins of this user or from this address (the shop's
     * login throttle, shared with the API).
     */
    THROTTLED
  }

  /**
   * The outcome, and for {@link Verdict#OPERATOR} the name of the principal the registry
   * authenticated: what the console records as the operator, never the name as typed.
   */
  record Login(Verdict verdict, String principal) {

    public static Login refused(Verdict verdict) {
      return new Login(verdict, null);
    }
  }

  Login authenticate(String userName, String password);
}
