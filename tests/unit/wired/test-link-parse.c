/* test-link-parse.c - rtnetlink link messages as the wired link monitor
 * reads them: name, address, flags, kind; cut-short messages refused. */
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "wired-link-monitor.h"
#include "wired-rtnl.h"

typedef struct {
	struct nlmsghdr hdr;
	struct ifinfomsg ifi;
	guint8 attrs[256];
} LinkMsg;

static void
link_msg_init(LinkMsg *m, guint16 type, gint ifindex, guint flags)
{
	memset(m, 0, sizeof(*m));
	m->hdr.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	m->hdr.nlmsg_type = type;
	m->ifi.ifi_type = ARPHRD_ETHER;
	m->ifi.ifi_index = ifindex;
	m->ifi.ifi_flags = flags;
}

/* IFLA_LINKINFO holding IFLA_INFO_KIND. */
static void
put_kind(LinkMsg *m, const gchar *kind)
{
	guint8 nested[64];
	struct rtattr *rta = (struct rtattr *)nested;

	rta->rta_type = IFLA_INFO_KIND;
	rta->rta_len = RTA_LENGTH(strlen(kind) + 1);
	memcpy(RTA_DATA(rta), kind, strlen(kind) + 1);
	g_assert_true(wired_rtnl_put(&m->hdr, sizeof(*m), IFLA_LINKINFO, nested,
	                             RTA_ALIGN(rta->rta_len)));
}

static void
test_parse_newlink(void)
{
	static const guint8 mac[6] = {0x02, 0xfc, 0x00, 0x00, 0x0a, 0xff};
	LinkMsg m;
	WiredLinkMessage out;

	link_msg_init(&m, RTM_NEWLINK, 7, IFF_UP | IFF_LOWER_UP);
	g_assert_true(wired_rtnl_put(&m.hdr, sizeof(m), IFLA_IFNAME, "veth0", 6));
	g_assert_true(wired_rtnl_put(&m.hdr, sizeof(m), IFLA_ADDRESS, mac, sizeof(mac)));
	put_kind(&m, "veth");
	g_assert_true(wired_link_parse(&m.hdr, &out));
	g_assert_false(out.removed);
	g_assert_cmpint(out.link.ifindex, ==, 7);
	g_assert_cmpstr(out.link.name, ==, "veth0");
	g_assert_cmpstr(out.link.address, ==, "02:fc:00:00:0a:ff");
	g_assert_true(out.link.admin_up);
	g_assert_true(out.link.carrier);
	g_assert_cmpstr(out.kind, ==, "veth");
	g_assert_cmpuint(out.arptype, ==, ARPHRD_ETHER);
}

static void
test_parse_dellink_and_bad(void)
{
	LinkMsg m;
	WiredLinkMessage out;

	/* A physical NIC going away: no kind, no carrier. */
	link_msg_init(&m, RTM_DELLINK, 3, IFF_UP);
	g_assert_true(wired_rtnl_put(&m.hdr, sizeof(m), IFLA_IFNAME, "eth0", 5));
	g_assert_true(wired_link_parse(&m.hdr, &out));
	g_assert_true(out.removed);
	g_assert_null(out.kind);
	g_assert_false(out.link.carrier);
	g_assert_cmpstr(out.link.address, ==, "");
	/* A name without its NUL is no name. */
	link_msg_init(&m, RTM_NEWLINK, 3, 0);
	g_assert_true(wired_rtnl_put(&m.hdr, sizeof(m), IFLA_IFNAME, "eth0", 4));
	g_assert_true(wired_link_parse(&m.hdr, &out));
	g_assert_null(out.link.name);
	/* Not a link message, or shorter than its header says it holds. */
	link_msg_init(&m, RTM_NEWADDR, 3, 0);
	g_assert_false(wired_link_parse(&m.hdr, &out));
	link_msg_init(&m, RTM_NEWLINK, 3, 0);
	m.hdr.nlmsg_len = NLMSG_LENGTH(4);
	g_assert_false(wired_link_parse(&m.hdr, &out));
	/* No room left for an attribute. */
	g_assert_false(wired_rtnl_put(&m.hdr, NLMSG_LENGTH(4), IFLA_IFNAME, "eth0", 5));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wired-link/newlink", test_parse_newlink);
	g_test_add_func("/wired-link/dellink-and-bad", test_parse_dellink_and_bad);
	return g_test_run();
}
