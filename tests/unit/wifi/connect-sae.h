/* connect-sae.h - the access point's side of SAE in the connector's
 * tests (joind's own exchange in the peer role) and the association and
 * 4-way handshake after it. */
#pragma once

#include "connect-keys.h"
#include "hs-test-util.h"
#include "sae.h"

/* SAE only, MFP required; the H2E variant adds an RSNXE with SAE H2E. */
#define RSNE_SAE  "30 14 0100 000fac04 0100 000fac04 0100 000fac08 c000"
#define RSNXE_H2E " f4 01 20"

/* The access point's side of SAE: joind's own exchange in the peer role. */
typedef struct {
	WifiSae *sae;
	GQueue *out; /* GBytes: seq, status, body */
	gboolean failed;
} SaeAp;

void sae_ap_init(SaeAp *ap, const gchar *ssid, gboolean h2e);
void sae_ap_clear(SaeAp *ap);
/* The station's SAE frame (CMD_AUTHENTICATE, NL80211_AUTHTYPE_SAE) goes
 * to the access point. */
void sae_to_ap(Fixture *f, SaeAp *ap);
/* The access point's next SAE frame, as the kernel's AUTHENTICATE event. */
void sae_to_station(Fixture *f, SaeAp *ap);
/* Our commit, the access point's commit and confirm, our confirm: SAE
 * accepted on both sides. */
void sae_run(Fixture *f, SaeAp *ap);
void sae_exchange(Fixture *f, WifiNetwork *network, SaeAp *ap);
/* Association (answered with status), then, when 0, the 4-way handshake
 * over pmk up to CONNECTED; the PMKID the request named into pmkid. */
gboolean sae_associate(Fixture *f, guint16 status, const guint8 *pmk, gboolean h2e,
                       guint8 pmkid[16]);
