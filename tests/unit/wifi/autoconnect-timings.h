/* autoconnect-timings.h - autoconnect's waits scaled down for the tests
 * that drive it (test-autoconnect.c, test-autoconnect-fake.c), so that
 * each runs in a few seconds. */
#pragma once

#include "autoconnect-retry.h"

static const WifiAutoconnectTimings test_timings = {
        .retry_initial_ms = 25,
        .retry_max_ms = 200,
        .max_attempts = 4,
        .link_retry_initial_ms = 20,
        .link_retry_max_ms = 40,
        .link_loss_window_ms = 5000,
        .avoid_ms = 60000,
        .suspect_attempts = 3,
        .suspect_span_ms = 60000,
        .block_ms = 600,
};
