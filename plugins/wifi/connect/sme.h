/* sme.h - the messages of the userspace SME: CMD_AUTHENTICATE (open
 * system, or one SAE frame), its AUTHENTICATE event, CMD_ASSOCIATE (with our
 * RSN element, the station's capability elements and the control port
 * attributes), its ASSOCIATE event; the connector's
 * AUTHENTICATING and ASSOCIATING states send and read them.
 *
 * joind uses it when the radio lists CMD_AUTHENTICATE and CMD_ASSOCIATE and
 * main.conf does not say UserspaceSME=false; otherwise CMD_CONNECT lets
 * cfg80211 do the same. What follows the association (the 4-way
 * handshake, keys, the authorized port) is the same on both paths, and so
 * is the end: cfg80211 sends a CONNECT event after the association
 * response too (the connector ignores it then) and a DISCONNECT event when
 * an associated link goes down.
 */
#pragma once

#include "bss.h"
#include "nl80211.h"
#include "rsn.h"
#include "sta-caps.h"

G_BEGIN_DECLS

/* What an AUTHENTICATE or ASSOCIATE event says of the request to bssid. */
typedef enum {
	WIFI_SME_ANSWER_NONE, /* not its answer: another BSS's, another step's, unreadable */
	WIFI_SME_ANSWER_SUCCESS,
	WIFI_SME_ANSWER_REFUSED, /* *status: the access point's status code */
	WIFI_SME_ANSWER_TIMED_OUT,
} WifiSmeAnswer;

/* Reads the event (cmd AUTHENTICATE or ASSOCIATE). error says why an
 * unreadable frame is NONE (may be unset). */
WifiSmeAnswer wifi_sme_read_answer(guint8 cmd, struct nlattr **attrs, const guint8 *bssid,
                                   guint16 *status, GError **error);

/* The attributes of the commands (for tests, which build messages
 * without a socket). */
void wifi_sme_put_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss);
/* Fast transition over the air: our RSNE, MDE and FTE (plan's). */
void wifi_sme_put_ft_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                                  const WifiRsnPlan *plan);
/* One SAE frame (sae-auth.c): data is NL80211_ATTR_SAE_DATA, from the
 * transaction sequence number on. */
void wifi_sme_put_sae_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                                   const guint8 *data, gsize len);
/* CMD_ASSOCIATE's: the target, our elements (the plan's and the
 * station's capabilities, caps) and the plan's RSN attributes. */
void wifi_sme_put_associate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                            const WifiRsnPlan *plan, const WifiStaCaps *caps,
                            gboolean control_port_nl);
/* CMD_CONNECT's (the kernel's SME, open system authentication). */
void wifi_sme_put_connect(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                          const WifiRsnPlan *plan, const WifiStaCaps *caps,
                          gboolean control_port_nl);
void wifi_sme_put_deauthenticate(struct nl_msg *msg, guint32 ifindex, const guint8 *bssid,
                                 guint16 reason);

/* CMD_AUTHENTICATE (open system, or FT with plan->ft_over_air),
 * CMD_ASSOCIATE or CMD_CONNECT (the kernel's SME) to bss; plan NULL for an
 * open network; the station's capabilities from wiphy (sta-caps.h). */
struct nl_msg *wifi_sme_msg_command(WifiNl *nl, guint8 cmd, guint32 ifindex, const WifiBss *bss,
                                    const WifiRsnPlan *plan, const WifiWiphy *wiphy,
                                    gboolean control_port_nl);
/* CMD_DEAUTHENTICATE from bssid (joind's SME), or CMD_DISCONNECT when
 * bssid is NULL. */
struct nl_msg *wifi_sme_msg_leave(WifiNl *nl, guint32 ifindex, const guint8 *bssid, guint16 reason);

/* "The access point refused the <stage> (<status>)." or, timed_out, "did
 * not answer"; stage "authentication" or "association". */
gchar *wifi_sme_refusal_message(const gchar *stage, gboolean timed_out, guint16 status);

G_END_DECLS
