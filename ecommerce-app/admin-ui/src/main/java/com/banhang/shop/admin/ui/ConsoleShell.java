package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.page.AppShellConfigurator;
import com.vaadin.flow.component.page.Push;
import com.vaadin.flow.shared.communication.PushMode;
import com.vaadin.flow.shared.ui.Transport;

/**
 * The console's page shell. Push lets a job on a managed thread (a bulk reconciliation) update the
 * page it was started from as it goes, without the page asking. Long polling, not WebSocket: it
 * runs on the servlet container's asynchronous requests, which the console's servlet already
 * allows, so the server needs no WebSocket feature and no proxy in front of it needs WebSocket
 * upgrades; a page that pushes a few updates a second does not need more.
 */
@Push(value = PushMode.AUTOMATIC, transport = Transport.LONG_POLLING)
public class ConsoleShell implements AppShellConfigurator {}
