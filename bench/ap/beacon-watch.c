/* beacon-watch.c - when an access point's first beacon goes on the air,
 * for bench/ap (never a test).
 *
 *   beacon-watch MONITOR SSID
 *
 * Reads every frame on MONITOR (mac80211_hwsim's hwsim0, which carries
 * each frame any simulated radio sends, behind a radiotap header) and
 * prints "T BSSID" for each beacon naming SSID that follows at least a
 * second without one from that BSSID: the first beacon of a BSS that has
 * just started. T is the kernel's receive time (SO_TIMESTAMPNS, seconds
 * since the epoch), so the beacon is dated when the radio sent it, however
 * late this program reads it. Runs until killed; status 1, with a sentence
 * on stderr, when the socket cannot be set up.
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
		fprintf(stderr, "beacon-watch: cannot listen on %s: %s\n", ifname, strerror(errno));
		return -1;
	}
	return fd;
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
frame(const uint8_t *buf, size_t size, const struct timespec *when, const char *ssid)
{
	size_t rt = size >= 4 ? (size_t)(buf[2] | buf[3] << 8) : size;
	const uint8_t *hdr = buf + rt, *name;
	size_t name_len = 0;
	long long ns = when->tv_sec * 1000000000LL + when->tv_nsec;
	Bss *bss;

	/* Frame control: management (type 0), beacon (subtype 8). */
	if (rt + 24 > size || hdr[0] != 0x80)
		return;
	name = beacon_ssid(hdr + 24, size - rt - 24, &name_len);
	if (name == NULL || name_len != strlen(ssid) || memcmp(name, ssid, name_len) != 0)
		return;
	bss = bss_of(hdr + 16);
	if (bss == NULL)
		return;
	if (ns - bss->last_ns >= SILENCE_NS) {
		printf("%lld.%06lld %02x:%02x:%02x:%02x:%02x:%02x\n", ns / 1000000000LL,
		       ns % 1000000000LL / 1000, hdr[16], hdr[17], hdr[18], hdr[19], hdr[20],
		       hdr[21]);
		fflush(stdout);
	}
	bss->last_ns = ns;
}

int
main(int argc, char **argv)
{
	uint8_t buf[4096];
	char control[256];
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: beacon-watch MONITOR SSID\n");
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
			fprintf(stderr, "beacon-watch: %s\n", strerror(errno));
			return 1;
		}
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS)
				memcpy(&when, CMSG_DATA(c), sizeof(when));
		}
		frame(buf, (size_t)n, &when, argv[2]);
	}
}
