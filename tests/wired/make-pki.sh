#!/usr/bin/env bash
# make-pki.sh DIR - a throw-away PKI for the wired 802.1X tests (openssl CLI).
#
#   ca.pem / ca.key              test root CA
#   server.pem / server.key      hostapd's EAP server: CN and SAN DNS auth.test,
#                                EKU serverAuth
#   server-expired.pem           the same key, validity ended in 2020
#   client.pem / client.key      EAP-TLS client "tlsuser", EKU clientAuth
#   client.enc.key               client.key as encrypted PKCS#8 (AES-256-CBC)
#   client.p12                   client cert + key + CA as PKCS#12
#   other-ca.pem                 an unrelated CA (untrusted-server tests)
# The passphrase of client.enc.key and client.p12 is "whatever".
# Nothing here is secret. RSA-2048 key generation makes this take ~1 s.
set -euo pipefail

dir=$1
pass=whatever
mkdir -p "$dir"
cd "$dir"

# PKI_KEY_ALG=ec: P-256 keys instead, for slow machines (the WiFi VM is
# emulated: RSA-2048 generation takes minutes there).
key() {
    if [[ ${PKI_KEY_ALG:-rsa} == ec ]]; then
        openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"
    else
        openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1"
    fi
}

self_signed_ca() { # KEY PEM CN
    key "$1"
    openssl req -new -x509 -sha256 -days 30 -key "$1" -out "$2" -subj "/O=joind test/CN=$3" \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -addext "subjectKeyIdentifier=hash"
}

leaf_ext() { # EKU [SAN]
    echo "basicConstraints = critical, CA:FALSE"
    echo "keyUsage = critical, digitalSignature, keyEncipherment"
    echo "extendedKeyUsage = $1"
    echo "subjectKeyIdentifier = hash"
    echo "authorityKeyIdentifier = keyid"
    if [[ -n ${2:-} ]]; then echo "subjectAltName = $2"; fi
}

sign() { # CSR EXTFILE OUT
    openssl x509 -req -sha256 -days 30 -in "$1" -CA ca.pem -CAkey ca.key \
        -CAcreateserial -extfile "$2" -out "$3" 2>/dev/null
}

self_signed_ca ca.key ca.pem "joind Test CA"
self_signed_ca other-ca.key other-ca.pem "Unrelated Test CA"

key server.key
openssl req -new -sha256 -key server.key -out server.csr -subj "/O=joind test/CN=auth.test"
leaf_ext serverAuth DNS:auth.test > server.ext
sign server.csr server.ext server.pem

key client.key
openssl req -new -sha256 -key client.key -out client.csr -subj "/O=joind test/CN=tlsuser"
leaf_ext clientAuth > client.ext
sign client.csr client.ext client.pem
openssl pkcs8 -topk8 -v2 aes-256-cbc -in client.key -out client.enc.key -passout "pass:$pass"
openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -name tlsuser \
    -out client.p12 -passout "pass:$pass"

# An expired server certificate needs explicit dates, which only "openssl ca"
# takes in OpenSSL 3.0.
cat > ca.cnf <<'CNF'
[ca]
default_ca = test
[test]
database = index.txt
new_certs_dir = .
serial = ca.serial
default_md = sha256
policy = anything
copy_extensions = none
[anything]
commonName = supplied
CNF
: > index.txt
echo 1000 > ca.serial
openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in server.csr \
    -startdate 20200101000000Z -enddate 20200201000000Z -extfile server.ext \
    -notext -out server-expired.pem 2>/dev/null

rm -f ./*.csr ./*.ext ca.srl ca.cnf index.txt* ca.serial* ./*.old 1000.pem
chmod 600 ./*.key
openssl verify -CAfile ca.pem server.pem client.pem >/dev/null
