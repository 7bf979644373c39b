/**
 * The faults a charge call may get (latency, errors before the charge, lost responses, requests
 * lost on their way), their settings, defaults from MicroProfile Config, and the seeded random
 * decisions that make a run repeatable. Depends on nothing else of the sandbox.
 */
package com.banhang.gateway.sandbox.fault;
