/* ft-ie.h - fast BSS transition (802.11r) on the air: the Mobility
 * Domain element (IEEE 802.11-2020 9.4.2.46), the Fast BSS Transition
 * element with its subelements R1KH-ID, GTK, R0KH-ID and IGTK (9.4.2.47),
 * and the elements an FT authentication or (re)association carries. Pure:
 * octets in, values out; the parser has a fuzz target.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_IE_FAST_BSS_TRANSITION 55
#define WIFI_MDE_LEN                5 /* the whole element */
/* FT Capability and Policy (figure 9-333). */
#define WIFI_FT_CAP_OVER_DS          0x01
#define WIFI_FT_CAP_RESOURCE_REQUEST 0x02

/* FTE subelement IDs (table 9-240). */
enum {
	WIFI_FTE_SUB_R1KH_ID = 1,
	WIFI_FTE_SUB_GTK = 2,
	WIFI_FTE_SUB_R0KH_ID = 3,
	WIFI_FTE_SUB_IGTK = 4,
};

#define WIFI_FTE_MIC_MAX     24
#define WIFI_FTE_NONCE_LEN   32
#define WIFI_FTE_R0KH_ID_MAX 48
#define WIFI_FTE_WRAPPED_MAX 40 /* a 256-bit key wrapped, padded */
/* The MIC's offset in the whole element: ID, length, MIC Control. */
#define WIFI_FTE_MIC_OFFSET 4

typedef struct {
	guint8 element_count; /* MIC Control: elements the MIC covers, 0 for none */
	gboolean rsnxe_used;  /* MIC Control bit 0 */
	guint8 mic[WIFI_FTE_MIC_MAX];
	gsize mic_len; /* 16, or 24 for FT-802.1X-SHA384 */
	guint8 anonce[WIFI_FTE_NONCE_LEN];
	guint8 snonce[WIFI_FTE_NONCE_LEN];
	gboolean has_r1kh_id;
	guint8 r1kh_id[6];
	guint8 r0kh_id[WIFI_FTE_R0KH_ID_MAX];
	gsize r0kh_id_len; /* 0: absent */
	gboolean has_gtk;
	guint8 gtk_key_id; /* Key Info bits 0-1 */
	guint8 gtk_len;    /* the key's length before wrapping */
	guint8 gtk_rsc[8];
	guint8 gtk_wrapped[WIFI_FTE_WRAPPED_MAX];
	gsize gtk_wrapped_len;
	gboolean has_igtk;
	guint16 igtk_key_id;
	guint8 igtk_ipn[6];
	guint8 igtk_len;
	guint8 igtk_wrapped[WIFI_FTE_WRAPPED_MAX];
	gsize igtk_wrapped_len;
} WifiFte;

/* An FTE's body with a MIC of mic_len octets (16 or 24: the AKM decides,
 * the element does not say). Fails with WIFI_IE_ERROR on a short body, a
 * subelement that runs past the end or has the wrong length, or one that
 * appears twice; unknown subelements are passed over. */
gboolean wifi_fte_parse(const guint8 *body, gsize len, gsize mic_len, WifiFte *out, GError **error);
/* The whole element (ID and length first); the MIC is fte->mic as given,
 * at WIFI_FTE_MIC_OFFSET for the caller to fill in. */
GBytes *wifi_fte_build(const WifiFte *fte);
/* The whole Mobility Domain element; mdid as the two octets on the air. */
void wifi_mde_write(guint8 out[WIFI_MDE_LEN], const guint8 mdid[2], guint8 capability);

/* The elements of an FT authentication or (re)association frame, each a
 * whole element pointed at in the list (NULL when absent), and the FTE
 * parsed. */
typedef struct {
	const guint8 *rsne;
	gsize rsne_len;
	const guint8 *mde;
	gsize mde_len;
	const guint8 *fte;
	gsize fte_len;
	const guint8 *rsnxe;
	gsize rsnxe_len;
	guint8 mdid[2];
	guint8 ft_capability;
	WifiFte parsed;
} WifiFtIes;

/* Finds and checks them: an MDE of 3 octets and an FTE that parses, each
 * once; the RSNE and RSNXE are pointed at. joind makes no resource
 * requests, so there is no RIC to find. Fails with WIFI_IE_ERROR
 * when the list is malformed or the MDE or FTE is missing or bad. */
gboolean wifi_ft_ies_parse(const guint8 *ies, gsize len, gsize mic_len, WifiFtIes *out,
                           GError **error);

G_END_DECLS
