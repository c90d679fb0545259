// SPDX-License-Identifier: GPL-2.0
/*
 * An fscrypt (v2 policy) directory for the table to run in, with the
 * uapi ioctls: no fscryptctl or keyctl needed in the guest.  The key is a
 * fixed test key; it is added to the filesystem's keyring, which an
 * unmount empties, so fscrypt_unlock() adds it again after a remount.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites.h"

#define KEY_SIZE 64

/* Add the test key to the keyring of the filesystem holding path. */
static int add_key(const char *path, __u8 id[FSCRYPT_KEY_IDENTIFIER_SIZE])
{
	struct fscrypt_add_key_arg *arg;
	int fd, ret;

	arg = calloc(1, sizeof(*arg) + KEY_SIZE);
	if (!arg)
		return -1;
	arg->key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	arg->raw_size = KEY_SIZE;
	memset(arg->raw, 0x5a, KEY_SIZE);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	ret = fd < 0 ? -1 : ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg);
	if (ret == 0)
		memcpy(id, arg->key_spec.u.identifier, FSCRYPT_KEY_IDENTIFIER_SIZE);
	else
		perror("FS_IOC_ADD_ENCRYPTION_KEY");
	if (fd >= 0)
		close(fd);
	free(arg);
	return ret;
}

int fscrypt_setup(const char *dir)
{
	struct fscrypt_policy_v2 policy = {
		.version = FSCRYPT_POLICY_V2,
		.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
		.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
		.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
	};
	int fd, ret;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		perror(dir);
		return -1;
	}
	if (add_key(dir, policy.master_key_identifier) < 0)
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -1;
	ret = ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy);
	if (ret < 0)
		perror("FS_IOC_SET_ENCRYPTION_POLICY");
	close(fd);
	return ret;
}

int fscrypt_unlock(const char *dir)
{
	__u8 id[FSCRYPT_KEY_IDENTIFIER_SIZE];

	return add_key(dir, id) < 0 ? 2 : 0;
}
