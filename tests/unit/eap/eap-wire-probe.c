/* eap-wire-probe.c - runs one EAP conversation of the engine and the MD5/TLS
 * methods against a real authenticator, without the daemon: a raw EAPOL
 * socket on an interface, EAPOL-Start, then EAP until Success or Failure.
 * A manual tool for checking the EAP room against hostapd (driver=wired)
 * before the wired plugin exists; not a unit test (it needs root, a veth
 * pair and hostapd).
 *
 *   eap-wire-probe IFNAME PROFILE [MTU]
 *
 * PROFILE is a key file with a [Security] group (EAP-Method=MD5|TLS, ...).
 * Prints the outcome, the time from EAPOL-Start to it, and whether an MSK
 * was derived (its length, never its bytes). Exit status 0 on success. */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib-unix.h>

#include "eap-md5.h"
#include "eap-tls.h"
#include "joind-eap-private.h"

#define EAPOL_VERSION     2
#define EAPOL_EAP_PACKET  0
#define EAPOL_START       1
#define EAPOL_HEADER_LEN  4
#define PROBE_TIMEOUT_SEC 10

static const guint8 pae_group[ETH_ALEN] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03};

typedef struct {
	int fd;
	int ifindex;
	GMainLoop *loop;
	gint64 start_us;
	int status;
	guint frames_in, frames_out;
} Probe;

static void
probe_send_eapol(Probe *p, guint8 type, const guint8 *body, gsize len)
{
	struct sockaddr_ll to = {
	        .sll_family = AF_PACKET,
	        .sll_protocol = htons(ETH_P_PAE),
	        .sll_ifindex = p->ifindex,
	        .sll_halen = ETH_ALEN,
	};
	g_autofree guint8 *frame = g_malloc(EAPOL_HEADER_LEN + len);

	memcpy(to.sll_addr, pae_group, ETH_ALEN);
	frame[0] = EAPOL_VERSION;
	frame[1] = type;
	frame[2] = (guint8)(len >> 8);
	frame[3] = (guint8)len;
	if (len > 0)
		memcpy(frame + EAPOL_HEADER_LEN, body, len);
	if (sendto(p->fd, frame, EAPOL_HEADER_LEN + len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		g_printerr("sendto: %s\n", g_strerror(errno));
	p->frames_out++;
}

static void
probe_eap_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	probe_send_eapol(data, EAPOL_EAP_PACKET, packet, len);
}

static void
probe_succeeded(JoindEapSession *s, gpointer data)
{
	Probe *p = data;
	gsize msk_len = 0, emsk_len = 0;

	joind_eap_session_get_msk(s, &msk_len);
	joind_eap_session_get_emsk(s, &emsk_len);
	g_print("SUCCESS method=%s identity=%s msk=%zu emsk=%zu time=%.1fms frames=%u/%u\n",
	        joind_eap_session_get_method_name(s), joind_eap_session_get_identity(s), msk_len,
	        emsk_len, (g_get_monotonic_time() - p->start_us) / 1000.0, p->frames_out,
	        p->frames_in);
	p->status = 0;
	g_main_loop_quit(p->loop);
}

static void
probe_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	Probe *p = data;

	g_print("FAILURE stage=%s time=%.1fms: %s\n", joind_eap_stage_to_string(stage),
	        (g_get_monotonic_time() - p->start_us) / 1000.0, error->message);
	p->status = 1;
	g_main_loop_quit(p->loop);
}

static gboolean
probe_readable(gint fd, GIOCondition condition, gpointer data)
{
	JoindEapSession *session = data;
	Probe *p = session->user_data;
	guint8 buf[4096];
	ssize_t n = recv(fd, buf, sizeof(buf), 0);
	gsize len;
	g_autoptr(GError) error = NULL;

	if (n < EAPOL_HEADER_LEN)
		return G_SOURCE_CONTINUE;
	p->frames_in++;
	len = (gsize)((buf[2] << 8) | buf[3]);
	if (buf[1] != EAPOL_EAP_PACKET || len > (gsize)n - EAPOL_HEADER_LEN)
		return G_SOURCE_CONTINUE;
	if (!joind_eap_session_rx(session, buf + EAPOL_HEADER_LEN, len, &error))
		g_printerr("malformed EAP: %s\n", error->message);
	return G_SOURCE_CONTINUE;
}

static gboolean
probe_timeout(gpointer data)
{
	Probe *p = data;

	g_print("TIMEOUT after %d s\n", PROBE_TIMEOUT_SEC);
	p->status = 2;
	g_main_loop_quit(p->loop);
	return G_SOURCE_REMOVE;
}

static int
probe_open(Probe *p, const gchar *ifname)
{
	struct sockaddr_ll addr = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_PAE)};
	struct packet_mreq mreq = {.mr_type = PACKET_MR_MULTICAST, .mr_alen = ETH_ALEN};

	p->ifindex = (int)if_nametoindex(ifname);
	p->fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, htons(ETH_P_PAE));
	if (p->ifindex == 0 || p->fd < 0)
		return -1;
	addr.sll_ifindex = p->ifindex;
	mreq.mr_ifindex = p->ifindex;
	memcpy(mreq.mr_address, pae_group, ETH_ALEN);
	if (bind(p->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    setsockopt(p->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mreq, sizeof(mreq)) < 0)
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	static const JoindEapSessionCallbacks callbacks = {
	        .send = probe_eap_send, .succeeded = probe_succeeded, .failed = probe_failed};
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindEapSession) session = NULL;
	Probe p = {.status = 2};

	if (argc < 3) {
		g_printerr("usage: %s IFNAME PROFILE [MTU]\n", argv[0]);
		return 2;
	}
	joind_eap_register_method(&eap_md5_ops, NULL);
	joind_eap_register_method(&eap_tls_ops, NULL);
	if (!g_key_file_load_from_file(kf, argv[2], G_KEY_FILE_NONE, &error)) {
		g_printerr("%s: %s\n", argv[2], error->message);
		return 2;
	}
	if (probe_open(&p, argv[1]) < 0) {
		g_printerr("%s: cannot open an EAPOL socket: %s\n", argv[1], g_strerror(errno));
		return 2;
	}
	session = joind_eap_session_new_for_keyfile(kf, &callbacks, &p);
	if (argc > 3)
		joind_eap_session_set_mtu(session, (gsize)g_ascii_strtoull(argv[3], NULL, 10));
	if (!joind_eap_session_check(session, &error)) {
		g_printerr("%s\n", error->message);
		return 2;
	}
	p.loop = g_main_loop_new(NULL, FALSE);
	g_unix_fd_add(p.fd, G_IO_IN, probe_readable, session);
	g_timeout_add_seconds(PROBE_TIMEOUT_SEC, probe_timeout, &p);
	p.start_us = g_get_monotonic_time();
	probe_send_eapol(&p, EAPOL_START, NULL, 0);
	g_main_loop_run(p.loop);
	g_main_loop_unref(p.loop);
	close(p.fd);
	return p.status;
}
