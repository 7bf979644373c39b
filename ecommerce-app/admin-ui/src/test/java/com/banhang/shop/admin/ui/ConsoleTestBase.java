package com.banhang.shop.admin.ui;

import static org.mockito.Mockito.mock;

import com.banhang.shop.admin.application.AuditLog;
import com.banhang.shop.admin.application.EventsOut;
import com.banhang.shop.admin.application.KeyLookup;
import com.banhang.shop.admin.application.LateCharges;
import com.banhang.shop.admin.application.OperationsOverview;
import com.banhang.shop.admin.application.OperatorActions;
import com.banhang.shop.admin.application.PaymentPages;
import com.banhang.shop.admin.application.RetentionReport;
import com.banhang.shop.admin.application.StuckOperations;
import com.github.mvysny.kaributesting.v10.MockVaadin;
import com.github.mvysny.kaributesting.v10.NotificationsKt;
import com.github.mvysny.kaributesting.v10.Routes;
import com.github.mvysny.kaributesting.v10.mock.MockService;
import com.github.mvysny.kaributesting.v10.mock.MockVaadinServlet;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.di.DefaultInstantiator;
import com.vaadin.flow.di.Instantiator;
import com.vaadin.flow.function.DeploymentConfiguration;
import com.vaadin.flow.server.ServiceException;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinServletService;
import com.vaadin.flow.server.VaadinSession;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Runs the console's real routes in Karibu's mocked Vaadin, with the application services replaced
 * by Mockito mocks: the instantiator builds each view through its {@code @Inject} constructor the
 * way CDI does in the server, but with the mocks.
 */
abstract class ConsoleTestBase {

  private static final Routes ROUTES = new Routes().autoDiscoverViews("com.banhang.shop.admin.ui");

  final StuckOperations stuck = mock(StuckOperations.class);
  final OperatorActions actions = mock(OperatorActions.class);
  final com.banhang.shop.admin.application.BulkReconciliation bulk =
      mock(com.banhang.shop.admin.application.BulkReconciliation.class);
  final KeyLookup keyLookup = mock(KeyLookup.class);
  final RetentionReport retention = mock(RetentionReport.class);
  final AuditLog audit = mock(AuditLog.class);
  final OperationsOverview overview = mock(OperationsOverview.class);
  final LateCharges lateCharges = mock(LateCharges.class);
  final OperatorAuthenticator authenticator = mock(OperatorAuthenticator.class);
  final PaymentPages paymentPages = mock(PaymentPages.class);
  final EventsOut eventsOut = mock(EventsOut.class);
  final com.banhang.shop.admin.application.GatewayEventsIn gatewayEvents =
      mock(com.banhang.shop.admin.application.GatewayEventsIn.class);

  @BeforeEach
  void setUpVaadin() {
    MockVaadinServlet servlet =
        new MockVaadinServlet(ROUTES) {
          @Override
          protected VaadinServletService createServletService(DeploymentConfiguration config)
              throws ServiceException {
            MockService service =
                new MockService(this, config, UI::new) {
                  private Instantiator instantiator;

                  @Override
                  public Instantiator getInstantiator() {
                    if (instantiator == null) {
                      instantiator = new MockedServicesInstantiator(this);
                    }
                    return instantiator;
                  }
                };
            service.init();
            ROUTES.register(service.getContext());
            return service;
          }
        };
    MockVaadin.setup(UI::new, servlet);
  }

  @AfterEach
  void tearDownVaadin() {
    MockVaadin.tearDown();
  }

  /** Builds views as CDI would, but with this test's mocks. */
  private final class MockedServicesInstantiator extends DefaultInstantiator {

    MockedServicesInstantiator(VaadinService service) {
      super(service);
    }

    @Override
    public <T> T getOrCreate(Class<T> type) {
      Object view = create(type);
      return view != null ? type.cast(view) : super.getOrCreate(type);
    }

    private Object create(Class<?> type) {
      if (type == LoginView.class) {
        return new LoginView(authenticator);
      }
      if (type == OverviewView.class) {
        return new OverviewView(overview);
      }
      if (type == StuckOperationsView.class) {
        return new StuckOperationsView(stuck, actions, bulk);
      }
      if (type == KeyLookupView.class) {
        return new KeyLookupView(keyLookup);
      }
      if (type == RetentionView.class) {
        return new RetentionView(retention, actions);
      }
      if (type == LateChargesView.class) {
        return new LateChargesView(lateCharges, actions);
      }
      if (type == GatewayEventsView.class) {
        return new GatewayEventsView(gatewayEvents, actions);
      }
      if (type == AuditView.class) {
        return new AuditView(audit);
      }
      if (type == EventsOutView.class) {
        return new EventsOutView(eventsOut);
      }
      if (type == PaymentView.class) {
        return new PaymentView(paymentPages, actions);
      }
      if (type == SearchView.class) {
        return new SearchView(paymentPages);
      }
      if (type == OrderView.class) {
        return new OrderView(paymentPages);
      }
      return null;
    }
  }

  /** What the login page does on success, without the servlet container. */
  static void loginAs(String operator) {
    VaadinSession.getCurrent().setAttribute(OperatorSession.class, new OperatorSession(operator));
  }

  static <T extends com.vaadin.flow.component.Component> T navigate(Class<T> view) {
    UI.getCurrent().navigate(view);
    return view.cast(UI.getCurrent().getCurrentView());
  }

  /** Follows a console link (a path with a query), as a browser opening it would. */
  static void open(String link) {
    int query = link.indexOf('?');
    if (query < 0) {
      UI.getCurrent().navigate(link);
    } else {
      UI.getCurrent()
          .navigate(
              link.substring(0, query),
              com.vaadin.flow.router.QueryParameters.fromString(link.substring(query + 1)));
    }
  }

  /** A mocked page(filter, offset, limit) that honours offset and limit, as Vaadin checks. */
  static <T> org.mockito.stubbing.Answer<List<T>> paged(List<T> all) {
    return invocation -> {
      int offset = invocation.getArgument(1);
      int limit = invocation.getArgument(2);
      return all.subList(Math.min(offset, all.size()), Math.min(all.size(), offset + limit));
    };
  }

  static List<String> notificationTexts() {
    return NotificationsKt.getNotifications().stream().map(ConsoleTestBase::text).toList();
  }

  static List<Notification> notifications() {
    return NotificationsKt.getNotifications();
  }

  static String text(Notification notification) {
    return notification.getElement().getProperty("text", "");
  }
}
