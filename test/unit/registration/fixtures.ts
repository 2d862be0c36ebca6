/**
 * CA certificates made once with the openssl CLI (OpenSSL 3.0) and their kubeadm pins, computed with the
 * command from the kubeadm docs (`kubeadm join --discovery-token-ca-cert-hash`):
 *
 *   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt \
 *     -subj '/CN=registration-fixture-ca' -days 36500
 *   openssl req -x509 -newkey rsa:2048 -nodes -keyout rsa.key -out rsa.crt \
 *     -subj '/CN=registration-fixture-rsa-ca' -days 36500
 *   openssl x509 -in ca.crt -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -hex
 *   openssl x509 -in rsa.crt -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -hex
 *
 * (The private keys were discarded.)
 */

/** EC P-256, CN=registration-fixture-ca. */
export const EC_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUSkLrRdPj5xBcfRBo/cQivzUe56cwCgYIKoZIzj0EAwIw
IjEgMB4GA1UEAwwXcmVnaXN0cmF0aW9uLWZpeHR1cmUtY2EwIBcNMjYxMTIxMDMx
NDM5WhgPMjEyNjEwMjgwMzE0MzlaMCIxIDAeBgNVBAMMF3JlZ2lzdHJhdGlvbi1m
aXh0dXJlLWNhMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEIMvFNaww54GMruPn
P2B3yKgCYX5w8NynLCGYcmnKR9DCenH/31SnwLFGpCn22GSb9hHGKUHYwViMLvn8
kNNcXaNTMFEwHQYDVR0OBBYEFASibKKMLFpJeK9B1fopXlTzaDiWMB8GA1UdIwQY
MBaAFASibKKMLFpJeK9B1fopXlTzaDiWMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZI
zj0EAwIDSAAwRQIgO6tCMbWDkFRSr47FTQUseFZ2wdTPhdHRmqX7alJC2f0CIQDr
Yrln7tkAd+SnsUv7YPoYWJzq6ttHfXGOzlGk/BgHpg==
-----END CERTIFICATE-----
`;
export const EC_CA_PIN = 'sha256:2468a756a4e7a5b60d58bb24b5bf5997bbabe2481eae9efe50a0889e56969b92';

/** RSA 2048, CN=registration-fixture-rsa-ca. */
export const RSA_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIDLzCCAhegAwIBAgIUF584EoFoc4v593ACUG+guUkPfY4wDQYJKoZIhvcNAQEL
BQAwJjEkMCIGA1UEAwwbcmVnaXN0cmF0aW9uLWZpeHR1cmUtcnNhLWNhMCAXDTI2
MTEyMTAzMTQ0MFoYDzIxMjYxMDI4MDMxNDQwWjAmMSQwIgYDVQQDDBtyZWdpc3Ry
YXRpb24tZml4dHVyZS1yc2EtY2EwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEK
AoIBAQCdrJ6Anhxqnc43cvsMenrSi2KUGzxapj66GQg61M0CEhRDsP5fKVKQ8t03
DhEN5PPowgC/Mm8G+ZgbZhLqBU4uUfO09lNmoE4QPbGDDu7RylBAVeYcu7CGFxz0
4ixX4Lb32zeUvji645DpoXYiWuWFZSGQH2RP0tbyb25Kd15YMcBbSpPGTzrFdi9g
kNth7vQ6jmJGa3lu3OE2OTwapt66eFuLQdAvlzTQIbCy6uMrCmtjJS7zC7mJDj8o
QS4hedDXKJ9VPeU2/CRZD2NImTN569ivf8yyGQlabN4k/tRRLWUPu+O6DvX4rvFB
zKRKULM8DOr2nYnX61DGEkLz3ydpAgMBAAGjUzBRMB0GA1UdDgQWBBTrO0CWBdUQ
WU/KWLvlwTxh+RsI1zAfBgNVHSMEGDAWgBTrO0CWBdUQWU/KWLvlwTxh+RsI1zAP
BgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQArh9fJXE5FVFkLfMgL
QubaNW3p0Pk1nIx+Oy/NFGQOOlLkaFehvy2NPC0xAY4WWvm6KyLWKR7kjLbRrTbx
9/1wsGw6b+AQWer+OoczQf3Rxr5Kxv1UyCQVfMTyQR9OoxNTiG277ttpBZHAM116
1xjdm8vt/6aXbd00bLBZXba7uMrXeh3BocJrRtSM2KiJWstVnmioqI7FvOM9npJi
BlMvJg7G4TNbK5gcdayyaYUIxJPQD0tQxgCUUH+Ej8AmWapdxpMQBcTGJp1M3Ixr
SbO4NuN4AgTF3CwQSaFX+E4Ok8cT6dGqulb/K+QPa3j8vbNQKN1GBSHn6E5NoaIL
SQ9V
-----END CERTIFICATE-----
`;
export const RSA_CA_PIN = 'sha256:0201ab694e7decedeae98931fad825e006342e93cb823825562664ec1ba3a1d1';
