/* fake-link.c - a WifiLink whose kernel is the unit test (see fake-link.h). */
#include "fake-link.h"

#include <linux/if.h>
#include <string.h>

#include "joind-error.h"

static gboolean
fake_get_flags(gpointer backend, const gchar *ifname, guint *flags, GError **error)
{
	*flags = ((FakeLink *)backend)->flags;
	return TRUE;
}

static gboolean
fake_set_up(gpointer backend, const gchar *ifname, GError **error)
{
	FakeLink *fake = backend;

	fake->n_set_up++;
	if (fake->refuse_up) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot bring %s up: %s",
		            ifname, g_strerror(ERFKILL));
		return FALSE;
	}
	fake->flags |= IFF_UP;
	return TRUE;
}

static void
fake_set_dormant_mode(gpointer backend, gint ifindex, gboolean dormant)
{
	((FakeLink *)backend)->dormant = dormant;
}

static void
fake_set_oper_up(gpointer backend, gint ifindex, gboolean up)
{
	((FakeLink *)backend)->oper_up = up;
}

static guint
fake_set_neigh_evict(gpointer backend, const gchar *ifname, gboolean evict, guint which)
{
	FakeLink *fake = backend;

	fake->neigh_evict = evict;
	fake->neigh_which = which;
	return which;
}

static gboolean
fake_set_address(gpointer backend, const gchar *ifname, const guint8 addr[6], GError **error)
{
	FakeLink *fake = backend;

	fake->n_set_address++;
	memcpy(fake->address, addr, 6);
	return TRUE;
}

static gboolean
fake_get_permanent_address(gpointer backend, const gchar *ifname, guint8 addr[6], GError **error)
{
	memcpy(addr, ((FakeLink *)backend)->permanent, 6);
	return TRUE;
}

static const WifiLinkOps fake_link_ops = {
        .get_flags = fake_get_flags,
        .set_up = fake_set_up,
        .set_dormant_mode = fake_set_dormant_mode,
        .set_oper_up = fake_set_oper_up,
        .set_neigh_evict = fake_set_neigh_evict,
        .set_address = fake_set_address,
        .get_permanent_address = fake_get_permanent_address,
        .free = g_free,
};

WifiLink *
fake_link_new(FakeLink **fake)
{
	FakeLink *self = g_new0(FakeLink, 1);

	self->dormant = -1;
	self->oper_up = -1;
	self->neigh_evict = -1;
	*fake = self;
	return wifi_link_new_with_ops(&fake_link_ops, self);
}
