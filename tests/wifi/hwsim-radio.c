/* hwsim-radio.c - add and remove mac80211_hwsim radios at run time.
 *
 *   hwsim-radio add NAME   creates a radio whose wiphy is called NAME (the
 *                          kernel gives it a station interface); prints the
 *                          radio id
 *   hwsim-radio del NAME   removes it again
 *
 * Talks to the MAC80211_HWSIM generic netlink family (include/uapi-less:
 * the numbers are those of drivers/net/wireless/mac80211_hwsim.h).
 */
#include <errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <stdio.h>
#include <string.h>

enum {
	HWSIM_CMD_NEW_RADIO = 4,
	HWSIM_CMD_DEL_RADIO = 5,
};
enum {
	HWSIM_ATTR_RADIO_NAME = 17,
};

static int
ack_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	/* NEW_RADIO answers with the radio id in the error field. */
	*(int *)arg = err->error;
	return NL_STOP;
}

static int
ack_ok(struct nl_msg *msg, void *arg)
{
	*(int *)arg = 0;
	return NL_STOP;
}

static int
run(const char *verb, const char *name)
{
	struct nl_sock *sock = nl_socket_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	struct nl_msg *msg = nlmsg_alloc();
	int family, result = -EINPROGRESS, cmd;

	if (sock == NULL || cb == NULL || msg == NULL || genl_connect(sock) < 0) {
		fprintf(stderr, "hwsim-radio: no generic netlink\n");
		return 1;
	}
	family = genl_ctrl_resolve(sock, "MAC80211_HWSIM");
	if (family < 0) {
		fprintf(stderr, "hwsim-radio: mac80211_hwsim is not loaded\n");
		return 1;
	}
	cmd = strcmp(verb, "add") == 0 ? HWSIM_CMD_NEW_RADIO : HWSIM_CMD_DEL_RADIO;
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_ACK, cmd, 0);
	nla_put_string(msg, HWSIM_ATTR_RADIO_NAME, name);
	nl_cb_err(cb, NL_CB_CUSTOM, ack_error, &result);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_ok, &result);
	if (nl_send_auto(sock, msg) < 0) {
		fprintf(stderr, "hwsim-radio: send failed\n");
		return 1;
	}
	while (result == -EINPROGRESS)
		if (nl_recvmsgs(sock, cb) < 0)
			break;
	nlmsg_free(msg);
	nl_cb_put(cb);
	nl_socket_free(sock);
	if (result < 0) {
		fprintf(stderr, "hwsim-radio: %s %s: %s\n", verb, name, strerror(-result));
		return 1;
	}
	if (cmd == HWSIM_CMD_NEW_RADIO)
		printf("%d\n", result);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "add") != 0 && strcmp(argv[1], "del") != 0)) {
		fprintf(stderr, "usage: hwsim-radio add|del NAME\n");
		return 2;
	}
	return run(argv[1], argv[2]);
}
