/* connect-fixture.h - the connector's tests' fixture: a real core, a
 * connector on a fake nl80211 whose kernel is the test, and the kernel's
 * side of a connection (command acks, AUTHENTICATE / ASSOCIATE / CONNECT /
 * DISCONNECT events), shared by the test-connect* programs. */
#pragma once

#include <errno.h>
#include <string.h>

#include "attempt.h"
#include "connect.h"
#include "device.h"
#include "fake-nl.h"
#include "test-core.h"

extern const guint8 ap_addr[6];  /* the network's first access point */
extern const guint8 ap2_addr[6]; /* its second one (make_network2()) */
extern const guint8 sta_addr[6]; /* ours */

typedef struct {
	TestCore *tc;
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	JoindDevice *device;
	JoindStation *station;
	WifiScanner *scanner;
	WifiPmksaCache *pmksa_cache;
	WifiConnector *connector;
	GString *events;    /* observer: one letter per WifiConnectEvent */
	const guint8 *peer; /* the access point of the EAPOL frames (NULL: ap_addr) */
	guint n_done;
	gboolean ok;
	GError *error;
} Fixture;

typedef struct {
	gboolean sme;
	const gchar *main_conf;
	guint32 ciphers; /* the radio's, beyond what every test needs */
	gboolean sae;    /* the radio runs SAE through joind's SME */
} Setup;

/* What each test runs on: the radio, joind's SME or the kernel's. */
extern const Setup sme;
extern const Setup kernel_sme;
extern const Setup sme_suite_b;
extern const Setup sme_mfp;
extern const Setup sme_sae;

#define CONNECT_TEST_ADD(path, setup, func) \
	g_test_add(path, Fixture, setup, fixture_set_up, func, fixture_tear_down)

void fixture_set_up(Fixture *f, gconstpointer data);
void fixture_tear_down(Fixture *f, gconstpointer data);
/* Runs what is ready in the main context, without blocking. */
void iterate(void);

/* A network of two access points, ap_addr's with rsne1 and ap2_addr's with
 * rsne2 (NULL: open), and its profile when not NULL. */
WifiNetwork *make_network2(Fixture *f, const gchar *ssid, const gchar *rsne1, const gchar *rsne2,
                           const gchar *profile);

WifiNetwork *make_network(Fixture *f, const gchar *ssid, const gchar *rsne_hex,
                          const gchar *profile);

void connect_done(GObject *source, GAsyncResult *result, gpointer user_data);

void connect_to(Fixture *f, WifiNetwork *network);

void send_event(Fixture *f, struct nl_msg *msg);

struct nl_msg *event_new(guint8 cmd);

/* An authentication frame or an association response from bssid. */
void send_answer(Fixture *f, guint8 cmd, const guint8 *bssid, guint16 status);

void send_timed_out(Fixture *f, guint8 cmd, const guint8 *bssid);

void send_connect_event(Fixture *f, guint16 status);

void send_disconnect_event(Fixture *f, guint16 reason);

/* A deauthentication frame (from the AP when from_ap, else our own). */
void send_deauth_event(Fixture *f, gboolean from_ap, guint16 reason);

/* The old link as mac80211 drops it when a roam's authentication to the
 * new BSS starts: our own deauthentication and a DISCONNECT event
 * without DISCONNECTED_BY_AP. */
void send_local_teardown(Fixture *f);

/* Acknowledges the pending command cmd (checking it goes to bssid). */
void ack(Fixture *f, guint8 cmd, const guint8 *bssid);

gboolean network_connected(WifiNetwork *network);

void assert_state(Fixture *f, JoindStationState state);

/* bssid accepts the authentication; the association is asked for (the
 * test answers it). */
void authenticate(Fixture *f, const guint8 *bssid);

/* Joins an open network on either path, up to CONNECTED. */
void join_open(Fixture *f, WifiNetwork *network, gboolean sme_path);

void assert_connected(Fixture *f, WifiNetwork *network);

/* A refusal fails the call with the status code named, and nothing stays
 * associated. */
void assert_failed(Fixture *f, gint code, const gchar *message_part, const gchar *events);

/* A failure once associated: the call fails, joind's SME deauthenticates
 * and the DISCONNECT event ends the link. */
void assert_failed_teardown(Fixture *f, gint code, const gchar *events);

void disconnect_done(GObject *source, GAsyncResult *result, gpointer user_data);

void assert_refused_at_once(Fixture *f, WifiNetwork *network, gint code);

/* Disconnect() from a keyed link, up to DISCONNECTED; the count of
 * answered calls and the events start again. */
void disconnect_and_reset(Fixture *f);

/* Disconnect(); the network takes the profile the link wrote (a station
 * does so on "profile-changed"). */
void disconnect_keep_profile(Fixture *f, WifiNetwork *network);
