package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.applayout.AppLayout;
import com.vaadin.flow.component.applayout.DrawerToggle;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.server.VaadinSession;
import com.vaadin.flow.theme.lumo.LumoUtility;

/**
 * The frame of every console view. It is also the console's only access check: every view but the
 * login page uses this layout, and anyone without an {@link OperatorSession} is sent to the login
 * page before the view's data is read.
 */
public class MainLayout extends AppLayout implements BeforeEnterObserver {

  private final Span operatorName = new Span();

  public MainLayout() {
    H1 title = new H1(Texts.t("console.name"));
    title.addClassNames(LumoUtility.FontSize.LARGE, LumoUtility.Margin.NONE);

    operatorName.setId("operator-name");
    Button logout = new Button(Texts.t("layout.logout"), e -> logout());
    logout.setId("logout-button");
    logout.addThemeVariants(ButtonVariant.LUMO_TERTIARY);

    // One box on every page for whatever the customer or the ticket reads out (SearchView).
    com.vaadin.flow.component.textfield.TextField search =
        new com.vaadin.flow.component.textfield.TextField();
    search.setId("search-field");
    search.setPlaceholder(Texts.t("layout.search.placeholder"));
    search.setAriaLabel(Texts.t("layout.search.aria"));
    search.setClearButtonVisible(true);
    search.setWidth("22em");
    search.addKeyPressListener(com.vaadin.flow.component.Key.ENTER, e -> search(search.getValue()));
    Button go = new Button(Texts.t("layout.search.find"), e -> search(search.getValue()));
    go.setId("search-go");
    HorizontalLayout searchBox = new HorizontalLayout(search, go);
    searchBox.setAlignItems(FlexComponent.Alignment.CENTER);
    searchBox.addClassNames(LumoUtility.Margin.Left.MEDIUM);

    HorizontalLayout user = new HorizontalLayout(operatorName, logout);
    user.setAlignItems(FlexComponent.Alignment.CENTER);
    user.addClassNames(LumoUtility.Margin.Left.AUTO, LumoUtility.Padding.Right.MEDIUM);

    addToNavbar(new DrawerToggle(), title, searchBox, user);

    SideNav nav = new SideNav();
    nav.setId("side-nav");
    nav.addItem(
        new SideNavItem(Texts.t("nav.overview"), OverviewView.class),
        new SideNavItem(Texts.t("nav.stuck"), StuckOperationsView.class),
        new SideNavItem(Texts.t("nav.late-charges"), LateChargesView.class),
        new SideNavItem(Texts.t("nav.gateway-events"), GatewayEventsView.class),
        new SideNavItem(Texts.t("nav.events"), EventsOutView.class),
        new SideNavItem(Texts.t("nav.keys"), KeyLookupView.class),
        new SideNavItem(Texts.t("nav.retention"), RetentionView.class),
        new SideNavItem(Texts.t("nav.audit"), AuditView.class));
    addToDrawer(nav);
  }

  /** Reads the browser's time zone once per session, for {@link Formats#instant}. */
  @Override
  protected void onAttach(com.vaadin.flow.component.AttachEvent attachEvent) {
    super.onAttach(attachEvent);
    VaadinSession session = attachEvent.getSession();
    if (session.getAttribute(Formats.ZONE_ATTRIBUTE) != null) {
      return;
    }
    attachEvent
        .getUI()
        .getPage()
        .retrieveExtendedClientDetails(
            details -> {
              try {
                session.setAttribute(
                    Formats.ZONE_ATTRIBUTE, java.time.ZoneId.of(details.getTimeZoneId()));
              } catch (RuntimeException e) {
                // No zone, or one Java does not know: times stay in UTC.
                session.setAttribute(Formats.ZONE_ATTRIBUTE, java.time.ZoneOffset.UTC);
              }
            });
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    OperatorSession.current()
        .ifPresentOrElse(
            operator -> operatorName.setText(operator.userName()),
            () -> event.forwardTo(LoginView.class));
  }

  private static void search(String term) {
    if (term == null || term.isBlank()) {
      Notices.error(Texts.t("layout.search.empty"));
      return;
    }
    UI.getCurrent()
        .navigate(
            SearchView.class,
            com.vaadin.flow.router.QueryParameters.simple(java.util.Map.of("q", term.trim())));
  }

  private void logout() {
    OperatorSession.clear();
    UI.getCurrent().getPage().setLocation(LoginView.PATH);
    // The whole session goes: the next request starts from nothing, like a new visitor.
    VaadinSession.getCurrent().getSession().invalidate();
  }
}
