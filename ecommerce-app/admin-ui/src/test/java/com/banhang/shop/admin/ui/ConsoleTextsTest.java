package com.banhang.shop.admin.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.HasAriaLabel;
import com.vaadin.flow.component.HasLabel;
import com.vaadin.flow.component.HasValue;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.i18n.DefaultI18NProvider;
import com.vaadin.flow.server.VaadinService;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;

/**
 * The console's texts come from its bundle, through the same provider as in the server: Vaadin's
 * default one, which the instantiator creates when {@code vaadin-i18n/translations.properties} is
 * on the classpath (see {@link Texts}).
 */
class ConsoleTextsTest extends ConsoleTestBase {

  /** The English bundle as a file, read without Vaadin. */
  private static final ResourceBundle ENGLISH =
      ResourceBundle.getBundle("vaadin-i18n.translations", Locale.ROOT);

  private static String english(String key) {
    return ENGLISH.getString(key);
  }

  @Test
  void theProviderIsVaadinsDefault_readingTheConsolesBundle() {
    assertThat(VaadinService.getCurrent().getInstantiator().getI18NProvider())
        .isInstanceOf(DefaultI18NProvider.class);
    assertThat(Texts.t("nav.stuck")).isEqualTo(english("nav.stuck")).isEqualTo("Stuck operations");
    assertThat(Texts.t("overview.gateway-errors", 1234))
        .as("parameters are shown as given, digits not grouped")
        .isEqualTo("Gateway errors, last hour: 1234");
  }

  @Test
  void theLayoutAndTheAuditView_showTheBundlesTexts() {
    loginAs("operator");
    AuditView view = navigate(AuditView.class);

    // The frame.
    assertThat(_get(Button.class, s -> s.withId("logout-button")).getText())
        .isEqualTo(english("layout.logout"));
    assertThat(_get(TextField.class, s -> s.withId("search-field")).getPlaceholder())
        .isEqualTo(english("layout.search.placeholder"));
    assertThat(_get(SideNav.class, s -> s.withId("side-nav")).getItems())
        .extracting(SideNavItem::getLabel)
        .containsExactly(
            english("nav.overview"),
            english("nav.stuck"),
            english("nav.late-charges"),
            english("nav.gateway-events"),
            english("nav.events"),
            english("nav.keys"),
            english("nav.retention"),
            english("nav.audit"));

    // The view: heading, a column, the browser's title.
    assertThat(_get(H2.class).getText()).isEqualTo(english("audit.title")).isEqualTo("Audit");
    Grid<?> grid = _get(Grid.class, s -> s.withId("audit-grid"));
    assertThat(grid.getColumns().get(0).getHeaderText()).isEqualTo(english("audit.column.when"));
    assertThat(view.getPageTitle()).isEqualTo("Audit | BanHang operator console");
    assertThat(UI.getCurrent().getInternals().getTitle())
        .isEqualTo("Audit | BanHang operator console");
  }

  /**
   * Every field a person types or picks in has a name a screen reader reads out: a label, or an
   * ARIA label where the placeholder stands in for it (the frame's search box).
   */
  @Test
  void everyFieldOfEveryViewHasALabel() {
    loginAs("operator");
    for (Class<? extends Component> view :
        List.of(
            OverviewView.class,
            StuckOperationsView.class,
            LateChargesView.class,
            GatewayEventsView.class,
            KeyLookupView.class,
            RetentionView.class,
            AuditView.class)) {
      navigate(view);
      List<Component> fields =
          _find(Component.class).stream()
              .filter(c -> c instanceof HasValue<?, ?> && c instanceof HasLabel)
              // The parts of a composite field (a date-time picker's date and time) are named by
              // the field they belong to.
              .filter(c -> !(c.getParent().orElse(null) instanceof HasValue<?, ?>))
              .toList();
      assertThat(fields).as("fields on %s", view.getSimpleName()).isNotEmpty();
      for (Component field : fields) {
        String label = ((HasLabel) field).getLabel();
        String aria =
            field instanceof HasAriaLabel named ? named.getAriaLabel().orElse(null) : null;
        assertThat(label == null || label.isBlank() ? aria : label)
            .as(
                "the label of %s %s on %s",
                field.getClass().getSimpleName(),
                field.getId().orElse("(no id)"),
                view.getSimpleName())
            .isNotBlank();
      }
    }
  }
}
