package com.banhang.subscriber;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The sample subscriber's REST endpoints, under its context root ({@code /subscriber}). */
@ApplicationPath("/")
public class SubscriberApplication extends Application {}
