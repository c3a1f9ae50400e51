/* connect-keys.c - the access point's side of the keys in the connector's
 * tests (connect-keys.h). */
#include "connect-keys.h"

TestAuth *
make_authenticator(const gchar *passphrase, const gchar *ssid)
{
	guint8 pmk[32];
	g_autoptr(GError) error = NULL;
	TestAuth *a;

	g_assert_true(
	        wifi_psk_from_secret(passphrase, (const guint8 *)ssid, strlen(ssid), pmk, &error));
	a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                  pmk, RSNE_PSK);
	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	return a;
}

void
send_eapol_as(Fixture *f, GBytes *frame, gboolean clear)
{
	struct nl_msg *msg = event_new(NL80211_CMD_CONTROL_PORT_FRAME);

	nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame),
	        g_bytes_get_data(frame, NULL));
	nla_put(msg, NL80211_ATTR_MAC, 6, f->peer != NULL ? f->peer : ap_addr);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, 0x888e);
	if (clear)
		nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT);
	send_event(f, msg);
}

void
send_eapol(Fixture *f, GBytes *frame)
{
	send_eapol_as(f, frame, FALSE);
}

GBytes *
take_eapol_as(Fixture *f, gboolean *clear)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_CONTROL_PORT_FRAME);
	struct nlattr *frame = req->attrs[NL80211_ATTR_FRAME];
	GBytes *bytes = g_bytes_new(nla_data(frame), (gsize)nla_len(frame));

	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6,
	                f->peer != NULL ? f->peer : ap_addr, 6);
	if (clear != NULL)
		*clear = req->attrs[NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT] != NULL;
	fake_nl_done(f->fake, req, 0);
	return bytes;
}

GBytes *
take_eapol(Fixture *f)
{
	return take_eapol_as(f, NULL);
}

void
associate(Fixture *f, WifiNetwork *network)
{
	connect_to(f, network);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_assert_cmpuint(f->n_done, ==, 0);
}

void
run_4way(Fixture *f, TestAuth *a)
{
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(GBytes) msg3 = NULL;
	g_autoptr(GBytes) msg4 = NULL;
	g_autofree gchar *why = NULL;

	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	msg3 = test_auth_msg3(a);
	send_eapol(f, msg3);
	msg4 = take_eapol(f);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	/* TK, GTK and, with MFP, the IGTK (made the default management key). */
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==,
	                 a->group_mgmt != 0 ? 3 : 2);
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_SET_KEY, 0), ==,
	                 a->group_mgmt != 0 ? 1 : 0);
}

/* An EAP packet from the access point, in an EAPOL frame. */
void
send_eap(Fixture *f, guint8 code, guint8 id, guint8 type, const gchar *data)
{
	gsize n = data != NULL ? strlen(data) : 0;
	gsize eap_len = code == JOIND_EAP_CODE_REQUEST ? 5 + n : 4;
	g_autoptr(GByteArray) frame = g_byte_array_new();
	guint8 head[9] = {2,    0,  (guint8)(eap_len >> 8), (guint8)eap_len,
	                  code, id, (guint8)(eap_len >> 8), (guint8)eap_len,
	                  type};
	g_autoptr(GBytes) bytes = NULL;

	g_byte_array_append(frame, head, code == JOIND_EAP_CODE_REQUEST ? 9 : 8);
	if (n > 0)
		g_byte_array_append(frame, (const guint8 *)data, (guint)n);
	bytes = g_byte_array_free_to_bytes(g_steal_pointer(&frame));
	send_eapol(f, bytes);
}

/* The station's EAP Response of type (EAPOL type 0), its Type-Data as a
 * string. */
gchar *
take_eap_response(Fixture *f, guint8 type)
{
	g_autoptr(GBytes) frame = take_eapol(f);
	gsize len = 0;
	const guint8 *p = g_bytes_get_data(frame, &len);

	g_assert_cmpuint(len, >=, 9);
	g_assert_cmpuint(p[1], ==, 0);
	g_assert_cmpuint(p[4], ==, JOIND_EAP_CODE_RESPONSE);
	g_assert_cmpuint(p[8], ==, type);
	return g_strndup((const gchar *)p + 9, len - 9);
}

/* Identity, the method's round and the server's verdict. */
void
run_eap(Fixture *f, const gchar *expect_identity, gboolean accept)
{
	g_autofree gchar *identity = NULL;
	g_autofree gchar *answer = NULL;

	send_eap(f, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	identity = take_eap_response(f, JOIND_EAP_TYPE_IDENTITY);
	g_assert_cmpstr(identity, ==, expect_identity);
	send_eap(f, JOIND_EAP_CODE_REQUEST, 2, TEST_EAP_TYPE, "?");
	answer = take_eap_response(f, TEST_EAP_TYPE);
	send_eap(f, accept ? JOIND_EAP_CODE_SUCCESS : JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
}

/* A key-generating method for the tests: it answers with the password and
 * exports an MSK made from it. */
static JoindEapMethodResult
testkey_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
               GByteArray *response, GError **error)
{
	const gchar *password = NULL;
	guint8 msk[64];

	switch (joind_eap_session_get_secret(session, "Password", JOIND_SECRET_USER_PASSWORD,
	                                     &password, error)) {
	case JOIND_EAP_SECRET_PENDING:
		return JOIND_EAP_METHOD_PENDING;
	case JOIND_EAP_SECRET_FAILED:
		return JOIND_EAP_METHOD_FAIL;
	case JOIND_EAP_SECRET_AVAILABLE:
		break;
	}
	g_byte_array_append(response, (const guint8 *)password, (guint)strlen(password));
	for (guint i = 0; i < sizeof(msk); i++)
		msk[i] = (guint8)(password[i % strlen(password)] + i);
	joind_eap_session_set_keys(session, msk, sizeof(msk), NULL, 0);
	joind_eap_session_set_decision(session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	return JOIND_EAP_METHOD_RESPOND;
}

static gpointer
testkey_state_new(JoindEapSession *session, GError **error)
{
	return g_malloc0(1);
}

const JoindEapMethodOps testkey_ops = {
        .type = TEST_EAP_TYPE,
        .name = "TESTKEY",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = testkey_state_new,
        .state_free = g_free,
        .handle_request = testkey_handle,
};

void
testkey_pmk(const gchar *password, guint8 *pmk, gsize len)
{
	for (guint i = 0; i < len; i++)
		pmk[i] = (guint8)(password[i % strlen(password)] + i);
}

const guint8 *
assoc_pmkid(FakeNlRequest *req)
{
	struct nlattr *ie = req->attrs[NL80211_ATTR_IE];
	const guint8 *p = nla_data(ie);
	/* The RSNE's own length: the station's capabilities follow it. */
	gsize len = 2 + (gsize)p[1];

	g_assert_cmpuint(p[0], ==, 48);
	g_assert_cmpuint(len, <=, (gsize)nla_len(ie));
	/* version, group, 1 pairwise, 1 AKM, capabilities: 20 octets, then
	 * the PMKID count. */
	if (len < 2 + 20 + 2 || p[22] == 0)
		return NULL;
	g_assert_cmpuint(len, >=, 2 + 20 + 2 + 16);
	return p + 24;
}
