/* air-watch.c - when the frames bench/ap times go on the air (never a
 * test).
 *
 *   air-watch MONITOR SSID
 *
 * Reads every frame on MONITOR (mac80211_hwsim's hwsim0, which carries
 * each frame any simulated radio sends, behind a radiotap header) and
 * prints one line per frame of interest, "T KIND TRANSMITTER RECEIVER":
 *   beacon        a beacon naming SSID that follows at least a second
 *                 without one from that BSSID: a BSS that has just started
 *                 (RECEIVER is the broadcast address)
 *   auth, assoc-req, assoc-resp, reassoc-req, reassoc-resp, deauth,
 *   disassoc      those management frames
 *   m1 .. m4      the 4-way handshake's EAPOL-Key frames, told apart by
 *                 their key information (IEEE 802.11-2020 12.7.6)
 *   g1, g2        the group key handshake's
 * T is the kernel's receive time (SO_TIMESTAMPNS, seconds since the
 * epoch), so a frame is dated when the radio sent it, however late this
 * program reads it. Runs until killed; status 1, with a sentence on
 * stderr, when the socket cannot be set up.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define MAX_BSS    16
#define SILENCE_NS 1000000000LL

typedef struct {
	uint8_t bssid[6];
	long long last_ns;
} Bss;

static Bss seen[MAX_BSS];
static unsigned n_seen;

static int
monitor_open(const char *ifname)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL)};
	int one = 1;
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (fd < 0 || sll.sll_ifindex == 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "air-watch: cannot listen on %s: %s\n", ifname, strerror(errno));
		return -1;
	}
	return fd;
}

static void
print_frame(long long ns, const char *kind, const uint8_t *ta, const uint8_t *ra)
{
	printf("%lld.%06lld %s %02x:%02x:%02x:%02x:%02x:%02x %02x:%02x:%02x:%02x:%02x:%02x\n",
	       ns / 1000000000LL, ns % 1000000000LL / 1000, kind, ta[0], ta[1], ta[2], ta[3], ta[4],
	       ta[5], ra[0], ra[1], ra[2], ra[3], ra[4], ra[5]);
	fflush(stdout);
}

/* The SSID element of a beacon's body (after the 12 fixed octets), or
 * NULL; its length in *len. */
static const uint8_t *
beacon_ssid(const uint8_t *body, size_t size, size_t *len)
{
	for (size_t at = 12; at + 2 <= size; at += 2 + (size_t)body[at + 1]) {
		if (at + 2 + body[at + 1] > size)
			return NULL;
		if (body[at] == 0) {
			*len = body[at + 1];
			return body + at + 2;
		}
	}
	return NULL;
}

/* The BSS's entry, a new one when there is room; NULL when there is none. */
static Bss *
bss_of(const uint8_t *bssid)
{
	for (unsigned i = 0; i < n_seen; i++) {
		if (memcmp(seen[i].bssid, bssid, 6) == 0)
			return &seen[i];
	}
	if (n_seen == MAX_BSS)
		return NULL;
	memcpy(seen[n_seen].bssid, bssid, 6);
	seen[n_seen].last_ns = 0;
	return &seen[n_seen++];
}

static void
beacon(const uint8_t *hdr, size_t size, long long ns, const char *ssid)
{
	const uint8_t *name;
	size_t name_len = 0;
	Bss *bss;

	name = beacon_ssid(hdr + 24, size - 24, &name_len);
	if (name == NULL || name_len != strlen(ssid) || memcmp(name, ssid, name_len) != 0)
		return;
	bss = bss_of(hdr + 16);
	if (bss == NULL)
		return;
	if (ns - bss->last_ns >= SILENCE_NS)
		print_frame(ns, "beacon", hdr + 16, hdr + 4);
	bss->last_ns = ns;
}

/* A management frame's name by its subtype (frame control's first
 * octet), or NULL for those not timed. */
static const char *
mgmt_kind(uint8_t fc0)
{
	switch (fc0) {
	case 0x00:
		return "assoc-req";
	case 0x10:
		return "assoc-resp";
	case 0x20:
		return "reassoc-req";
	case 0x30:
		return "reassoc-resp";
	case 0xa0:
		return "disassoc";
	case 0xb0:
		return "auth";
	case 0xc0:
		return "deauth";
	default:
		return NULL;
	}
}

/* An EAPOL-Key frame's place in its handshake by its key information:
 * Pairwise, Install, Ack, MIC and Secure (IEEE 802.11-2020 12.7.2). */
static const char *
key_kind(uint16_t info)
{
	int pairwise = info & 0x0008, install = info & 0x0040, ack = info & 0x0080;
	int mic = info & 0x0100, secure = info & 0x0200;

	if (!pairwise)
		return ack ? "g1" : "g2";
	if (ack)
		return install ? "m3" : "m1";
	return secure && mic ? "m4" : "m2";
}

/* An unprotected data frame carrying an EAPOL-Key: "m1" .. "g2", or NULL. */
static const char *
data_kind(const uint8_t *hdr, size_t size)
{
	static const uint8_t snap_eapol[8] = {0xaa, 0xaa, 0x03, 0, 0, 0, 0x88, 0x8e};
	size_t at = 24;

	if ((hdr[1] & 0x40) != 0 || (hdr[1] & 0x03) == 0x03)
		return NULL; /* protected, or four addresses */
	if ((hdr[0] & 0x80) != 0)
		at += (hdr[1] & 0x80) != 0 ? 6u : 2u; /* QoS control, HT control */
	/* SNAP, then EAPOL: version, type 3 (key), length, descriptor type. */
	if (at + 8 + 4 + 3 > size || memcmp(hdr + at, snap_eapol, 8) != 0 || hdr[at + 9] != 3)
		return NULL;
	return key_kind((uint16_t)(hdr[at + 13] << 8 | hdr[at + 14]));
}

static void
frame(const uint8_t *buf, size_t size, const struct timespec *when, const char *ssid)
{
	size_t rt = size >= 4 ? (size_t)(buf[2] | buf[3] << 8) : size;
	const uint8_t *hdr = buf + rt;
	long long ns = when->tv_sec * 1000000000LL + when->tv_nsec;
	const char *kind = NULL;

	if (rt + 24 > size)
		return;
	if (hdr[0] == 0x80)
		beacon(hdr, size - rt, ns, ssid);
	else if ((hdr[0] & 0x0c) == 0x00)
		kind = mgmt_kind(hdr[0]);
	else if ((hdr[0] & 0x0c) == 0x08)
		kind = data_kind(hdr, size - rt);
	if (kind != NULL)
		print_frame(ns, kind, hdr + 10, hdr + 4);
}

int
main(int argc, char **argv)
{
	uint8_t buf[4096];
	char control[256];
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: air-watch MONITOR SSID\n");
		return 2;
	}
	fd = monitor_open(argv[1]);
	if (fd < 0)
		return 1;
	for (;;) {
		struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf)};
		struct msghdr msg = {.msg_iov = &iov,
		                     .msg_iovlen = 1,
		                     .msg_control = control,
		                     .msg_controllen = sizeof(control)};
		struct timespec when = {0};
		ssize_t n = recvmsg(fd, &msg, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "air-watch: %s\n", strerror(errno));
			return 1;
		}
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS)
				memcpy(&when, CMSG_DATA(c), sizeof(when));
		}
		frame(buf, (size_t)n, &when, argv[2]);
	}
}
