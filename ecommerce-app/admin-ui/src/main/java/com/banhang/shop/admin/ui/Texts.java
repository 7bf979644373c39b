package com.banhang.shop.admin.ui;

import com.vaadin.flow.i18n.I18NProvider;

/**
 * Every text the console shows a person, by its key in {@code vaadin-i18n/translations.properties}
 * (docs/operations.md, "Views").
 *
 * <p>No provider of our own: Vaadin's {@code DefaultI18NProvider} reads that bundle from the
 * classpath by itself, and both places the console runs end up with it. In the server, vaadin-cdi's
 * instantiator first asks CDI for an {@code I18NProvider} bean qualified
 * {@code @VaadinServiceEnabled}; there is none, so it falls back to Vaadin's own instantiator,
 * which creates the default provider when the bundle is on the class loader of the web application.
 * The Karibu tests' instantiator is that same Vaadin instantiator ({@code ConsoleTestBase}), so the
 * tests read the same bundle. A CDI bean implementing {@code I18NProvider} with that qualifier
 * would replace it in the server only, and the tests would no longer see what operators see.
 *
 * <p>Parameters are passed as text ({@link String#valueOf}): ids and counts read as they always
 * did, digits never grouped by locale (an order id 1234 is not "1,234"). A text with parameters
 * goes through {@link java.text.MessageFormat}, so an apostrophe in it is written {@code ''}; one
 * without parameters is shown as written ({@code TranslationKeysTest} checks both).
 */
final class Texts {

  private Texts() {}

  /** The text of {@code key} in the locale of the current UI, {@code {0}}... filled in. */
  static String t(String key, Object... params) {
    Object[] shown = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      shown[i] = params[i] == null ? Formats.NONE : String.valueOf(params[i]);
    }
    return I18NProvider.translate(key, shown);
  }

  /** The browser title of a view: its own name and the console's. */
  static String title(String key) {
    return Texts.t("title.page", t(key));
  }
}
