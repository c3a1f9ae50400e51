/* eap-test-peer.h - drives one EAP method in a real EAP session (the core's
 * engine) for unit tests: settings from a key file, a fake agent, and the
 * packets the peer sends, kept for inspection. */
#pragma once

#include <gio/gio.h>

#include "joind-eap-private.h"
#include "joind-error.h"

G_BEGIN_DECLS

typedef struct {
	GKeyFile *keyfile;
	JoindEapSession *session;
	GPtrArray *sent; /* GBytes: whole EAP packets the peer sent */
	gboolean succeeded;
	gboolean failed;
	JoindEapStage failed_stage;
	GError *error; /* of the failed callback */
	/* fake agent */
	gboolean has_agent;
	guint agent_questions;
	JoindSecretKind agent_kind;
	GTask *agent_task;
	guint8 next_id;
} EapTestPeer;

/* security: "Key=Value" lines of the [Security] group. */
EapTestPeer *eap_test_peer_new(const gchar *security);
void eap_test_peer_free(EapTestPeer *peer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTestPeer, eap_test_peer_free)

/* A Request with the next identifier (returned); type 0 sends
 * Success/Failure with the identifier of the last Response. */
guint8 eap_test_peer_request(EapTestPeer *peer, guint8 type, const void *data, gsize len);
void eap_test_peer_identity(EapTestPeer *peer);
void eap_test_peer_success(EapTestPeer *peer);
void eap_test_peer_failure(EapTestPeer *peer);

/* The last packet the peer sent: asserts it is a Response of this type
 * answering the last Request and returns its Type-Data. */
GBytes *eap_test_peer_last_response(EapTestPeer *peer, guint8 type);

void eap_test_peer_agent_answer(EapTestPeer *peer, const gchar *user, const gchar *secret);
void eap_test_peer_agent_refuse(EapTestPeer *peer, gint code);

/* A test: the error's message contains fragment. */
void eap_test_assert_message(const GError *error, const gchar *fragment);

G_END_DECLS
