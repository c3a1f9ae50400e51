/* eap-tls-autoptr.h - g_autoptr() for the OpenSSL types tls-common uses. */
#pragma once

#include <glib.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BIO, BIO_free_all)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_PKEY, EVP_PKEY_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MD_CTX, EVP_MD_CTX_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(X509, X509_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PKCS12, PKCS12_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SSL_CTX, SSL_CTX_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SSL, SSL_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GENERAL_NAMES, GENERAL_NAMES_free)
