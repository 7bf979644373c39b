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
    H1 title = new H1("BanHang operator console");
    title.addClassNames(LumoUtility.FontSize.LARGE, LumoUtility.Margin.NONE);

    operatorName.setId("operator-name");
    Button logout = new Button("Log out", e -> logout());
    logout.setId("logout-button");
    logout.addThemeVariants(ButtonVariant.LUMO_TERTIARY);

    HorizontalLayout user = new HorizontalLayout(operatorName, logout);
    user.setAlignItems(FlexComponent.Alignment.CENTER);
    user.addClassNames(LumoUtility.Margin.Left.AUTO, LumoUtility.Padding.Right.MEDIUM);

    addToNavbar(new DrawerToggle(), title, user);

    SideNav nav = new SideNav();
    nav.setId("side-nav");
    nav.addItem(
        new SideNavItem("Overview", OverviewView.class),
        new SideNavItem("Stuck operations", StuckOperationsView.class),
        new SideNavItem("Late charges", LateChargesView.class),
        new SideNavItem("Key lookup", KeyLookupView.class),
        new SideNavItem("Retention", RetentionView.class),
        new SideNavItem("Audit", AuditView.class));
    addToDrawer(nav);
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    OperatorSession.current()
        .ifPresentOrElse(
            operator -> operatorName.setText(operator.userName()),
            () -> event.forwardTo(LoginView.class));
  }

  private void logout() {
    OperatorSession.clear();
    UI.getCurrent().getPage().setLocation(LoginView.PATH);
    // The whole session goes: the next request starts from nothing, like a new visitor.
    VaadinSession.getCurrent().getSession().invalidate();
  }
}
