/* fake-nl.c - a WifiNl whose kernel is the unit test (see fake-nl.h). */
#include "fake-nl.h"

#include <glib.h>
#include <string.h>

struct _FakeNl {
	GPtrArray *pending; /* FakeNlRequest, oldest first */
	guint sent[256];    /* per command */
	guint next_id;
};

static void
request_free(FakeNlRequest *req)
{
	if (req->destroy != NULL)
		req->destroy(req->user_data);
	nlmsg_free(req->msg);
	g_free(req);
}

static guint
fake_send(gpointer backend, struct nl_msg *msg, WifiNlReplyFunc reply, WifiNlDoneFunc done,
          gpointer user_data, GDestroyNotify destroy)
{
	FakeNl *fake = backend;
	FakeNlRequest *req = g_new0(FakeNlRequest, 1);

	req->id = ++fake->next_id;
	req->msg = msg;
	req->cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->cmd;
	wifi_test_msg_parse(msg, req->attrs);
	req->reply = reply;
	req->done = done;
	req->user_data = user_data;
	req->destroy = destroy;
	fake->sent[req->cmd]++;
	g_ptr_array_add(fake->pending, req);
	return req->id;
}

static void
fake_cancel(gpointer backend, guint id)
{
	FakeNl *fake = backend;

	for (guint i = 0; i < fake->pending->len; i++) {
		FakeNlRequest *req = g_ptr_array_index(fake->pending, i);

		if (req->id == id) {
			g_ptr_array_remove_index(fake->pending, i); /* frees it */
			return;
		}
	}
}

static void
fake_free(gpointer backend)
{
	FakeNl *fake = backend;

	g_ptr_array_unref(fake->pending);
	g_free(fake);
}

static const WifiNlOps fake_ops = {fake_send, fake_cancel, fake_free};

WifiNl *
fake_nl_new(FakeNl **fake)
{
	FakeNl *self = g_new0(FakeNl, 1);

	self->pending = g_ptr_array_new_with_free_func((GDestroyNotify)request_free);
	*fake = self;
	return wifi_nl_new_with_ops(&fake_ops, self, 0x20);
}

guint
fake_nl_n_pending(FakeNl *fake)
{
	return fake->pending->len;
}

FakeNlRequest *
fake_nl_find(FakeNl *fake, guint8 cmd)
{
	for (guint i = 0; i < fake->pending->len; i++) {
		FakeNlRequest *req = g_ptr_array_index(fake->pending, i);

		if (req->cmd == cmd)
			return req;
	}
	return NULL;
}

FakeNlRequest *
fake_nl_expect(FakeNl *fake, guint8 cmd)
{
	FakeNlRequest *req = fake_nl_find(fake, cmd);

	if (req == NULL)
		g_error("no pending %s request", wifi_nl_cmd_name(cmd));
	return req;
}

guint
fake_nl_n_sent(FakeNl *fake, guint8 cmd)
{
	return fake->sent[cmd];
}

void
fake_nl_clear_sent(FakeNl *fake)
{
	memset(fake->sent, 0, sizeof(fake->sent));
}

void
fake_nl_reply(FakeNl *fake, FakeNlRequest *req, struct nl_msg *reply)
{
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];

	g_assert_true(g_ptr_array_find(fake->pending, req, NULL));
	wifi_test_msg_parse(reply, attrs);
	if (req->reply != NULL)
		req->reply(attrs, req->user_data);
	nlmsg_free(reply);
}

void
fake_nl_done(FakeNl *fake, FakeNlRequest *req, int error)
{
	guint index;

	g_assert_true(g_ptr_array_find(fake->pending, req, &index));
	/* Out of the table before done runs: done may send or cancel. */
	g_ptr_array_steal_index(fake->pending, index);
	if (req->done != NULL)
		req->done(error, req->user_data);
	request_free(req);
}

guint
fake_nl_done_all(FakeNl *fake, guint8 cmd, int error)
{
	guint n = 0;
	FakeNlRequest *req;

	while ((req = fake_nl_find(fake, cmd)) != NULL) {
		fake_nl_done(fake, req, error);
		n++;
	}
	return n;
}

void
fake_nl_event(WifiNl *nl, struct nl_msg *event)
{
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];
	guint8 cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(event)))->cmd;

	wifi_test_msg_parse(event, attrs);
	wifi_nl_dispatch_event(nl, cmd, attrs);
	nlmsg_free(event);
}

struct nl_msg *
fake_nl_iface_event_new(guint8 cmd, guint32 ifindex)
{
	struct nl_msg *msg = wifi_test_msg_new(cmd);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	return msg;
}
