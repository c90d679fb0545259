// SPDX-License-Identifier: GPL-2.0
/*
 * eCryptfs' key without ecryptfs-utils: the auth token of a fixed test
 * passphrase, as the "user" key whose description is its signature, in
 * the user keyring (which the user session keyring links, so that
 * request_key() at mount finds it).  The layout is include/linux/
 * ecryptfs.h's struct ecryptfs_auth_tok (packed), version 0.4, the only
 * one the kernel accepts (ecryptfs_verify_version()); the key that
 * encrypts each file's key (and, with ecryptfs_fnek_sig, the names) is
 * session_key_encryption_key, here fixed test bytes instead of the
 * passphrase's iterated hash.
 */
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compiler.h"
#include "suites.h"

#define KEY_SPEC_USER_KEYRING	-4
#define ECRYPTFS_MAX_KEY_BYTES	64
#define ECRYPTFS_SIG_SIZE_HEX	16
#define ECRYPTFS_PASSWORD	0
#define ECRYPTFS_SESSION_KEY_ENCRYPTION_KEY_SET 0x02

struct ecryptfs_password {
	__u32 password_bytes;
	__s32 hash_algo;
	__u32 hash_iterations;
	__u32 session_key_encryption_key_bytes;
	__u32 flags;
	__u8 session_key_encryption_key[ECRYPTFS_MAX_KEY_BYTES];
	__u8 signature[ECRYPTFS_SIG_SIZE_HEX + 1];
	__u8 salt[8];
} __packed;

struct ecryptfs_session_key {
	__u32 flags;
	__u32 encrypted_key_size;
	__u32 decrypted_key_size;
	__u8 encrypted_key[512];
	__u8 decrypted_key[ECRYPTFS_MAX_KEY_BYTES];
} __packed;

struct ecryptfs_auth_tok {
	__u16 version;
	__u16 token_type;
	__u32 flags;
	struct ecryptfs_session_key session_key;
	__u8 reserved[32];
	struct ecryptfs_password password;
} __packed;

int ecryptfs_key(const char *sig)
{
	struct ecryptfs_auth_tok tok;
	long serial;

	if (strlen(sig) != ECRYPTFS_SIG_SIZE_HEX) {
		fprintf(stderr, "emptylink ecryptfs-key: a signature is %d hex digits\n",
			ECRYPTFS_SIG_SIZE_HEX);
		return 2;
	}
	memset(&tok, 0, sizeof(tok));
	tok.version = 0x0004;
	tok.token_type = ECRYPTFS_PASSWORD;
	tok.password.session_key_encryption_key_bytes = ECRYPTFS_MAX_KEY_BYTES;
	tok.password.flags = ECRYPTFS_SESSION_KEY_ENCRYPTION_KEY_SET;
	memset(tok.password.session_key_encryption_key, 0x5a,
	       ECRYPTFS_MAX_KEY_BYTES);
	memcpy(tok.password.signature, sig, ECRYPTFS_SIG_SIZE_HEX);
	serial = syscall(SYS_add_key, "user", sig, &tok, sizeof(tok),
			 KEY_SPEC_USER_KEYRING);
	if (serial < 0) {
		perror("emptylink ecryptfs-key: add_key");
		return 1;
	}
	return 0;
}
