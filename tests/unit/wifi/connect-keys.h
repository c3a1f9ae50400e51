/* connect-keys.h - the access point's side of the keys in the connector's
 * tests: its EAPOL frames over the control port, the 4-way handshake played
 * by the authenticator of tests/unit/wifi-handshake, and TESTKEY, a
 * key-generating EAP method for the 802.1X tests. */
#pragma once

#include "connect-fixture.h"
#include "joind-eap.h"
#include "test-authenticator.h"

#define RSNE_PSK      "30 14 0100 000fac04 0100 000fac04 0100 000fac02 0000"
#define PASSPHRASE    "correct horse battery"
#define RSNE_8021X    "30 14 0100 000fac04 0100 000fac04 0100 000fac01 0000"
#define EAP_PROFILE   "[Security]\nEAP-Method=TESTKEY\nEAP-Identity=alice\nEAP-Password=secret\n"
#define TEST_EAP_TYPE 200
#define RSNE_OWE      "30 14 0100 000fac04 0100 000fac04 0100 000fac12 c000"

/* The access point's authenticator on a WPA2-PSK network of that ssid,
 * between ap_addr and sta_addr. */
TestAuth *make_authenticator(const gchar *passphrase, const gchar *ssid);

/* The access point's EAPOL frame, over the control port; clear: the
 * kernel says it came unprotected. */
void send_eapol_as(Fixture *f, GBytes *frame, gboolean clear);
void send_eapol(Fixture *f, GBytes *frame);

/* The station's EAPOL frame the control port was asked to send (acked);
 * *clear, when not NULL: whether it goes unprotected. */
GBytes *take_eapol_as(Fixture *f, gboolean *clear);
GBytes *take_eapol(Fixture *f);

/* Up to the association (joind's SME): the key step waits. */
void associate(Fixture *f, WifiNetwork *network);

/* Messages 1 to 4: the station sends message 2 and 4, installs the keys
 * and asks for the authorized port. */
void run_4way(Fixture *f, TestAuth *a);

/* An EAP packet from the access point, in an EAPOL frame. */
void send_eap(Fixture *f, guint8 code, guint8 id, guint8 type, const gchar *data);
/* The station's EAP Response of type (EAPOL type 0), its Type-Data as a
 * string. */
gchar *take_eap_response(Fixture *f, guint8 type);
/* An EAP conversation with TESTKEY: the identity (expected to be
 * expect_identity), the method's round and the server's verdict. */
void run_eap(Fixture *f, const gchar *expect_identity, gboolean accept);

/* TESTKEY (EAP type TEST_EAP_TYPE), for EAP_PROFILE: a test program registers
 * it before any profile is read. */
extern const JoindEapMethodOps testkey_ops;

/* The PMK an authenticator derives from the test method's MSK: its first
 * len octets. */
void testkey_pmk(const gchar *password, guint8 *pmk, gsize len);

/* The PMKID our association request's RSNE names, or NULL. */
const guint8 *assoc_pmkid(FakeNlRequest *req);
