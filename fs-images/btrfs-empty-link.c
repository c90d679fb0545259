// SPDX-License-Identifier: GPL-2.0
/*
 * btrfs-empty-link IMAGE INO LAYOUT: turn symlink inode INO of the top
 * subvolume of an unmounted btrfs image into an empty symlink, in one of
 * the two on-disk layouts an implementation could write:
 *
 *   inline0    i_size 0 and a zero-length inline extent (what
 *              btrfs_symlink("") writes on 6.12 with only the VFS change)
 *   noextent   i_size 0 and no file extent item at all (like an empty
 *              regular file)
 *
 * Debian's btrfs-progs has no tool that edits items, and mkfs.btrfs
 * --rootdir refuses empty links, so fs-images/make-images.sh makes the
 * link with a one-byte body and calls this.  Only what that needs is
 * supported: one device, SINGLE metadata, crc32c checksums.  The edit
 * is done in the leaf in place (items shrunk or removed, data moved as
 * btrfs does it) and the leaf's checksum is recomputed.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SUPER_OFFSET		0x10000
#define SUPER_SIZE		4096
#define SUPER_MAGIC		"_BHRfS_M"
#define HEADER_SIZE		101
#define ITEM_SIZE		25
#define KEY_PTR_SIZE		33
#define CHUNK_SIZE		48
#define STRIPE_SIZE		32
#define INODE_ITEM_KEY		1
#define EXTENT_DATA_KEY		108
#define ROOT_ITEM_KEY		132
#define CHUNK_ITEM_KEY		228
#define FS_TREE_OBJECTID	5
#define EXTENT_INLINE_HDR	21
#define MAX_CHUNKS		64

struct key {
	uint64_t objectid;
	uint8_t type;
	uint64_t offset;
};

struct chunk {
	uint64_t logical, length, physical;
};

static int fd;
static uint32_t nodesize;
static struct chunk chunks[MAX_CHUNKS];
static int nr_chunks;

static void die(const char *msg)
{
	fprintf(stderr, "btrfs-empty-link: %s\n", msg);
	exit(1);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return le16toh(v);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static uint32_t crc32c(const uint8_t *p, size_t n)
{
	uint32_t crc = ~0u;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return ~crc;
}

static void read_key(const uint8_t *p, struct key *k)
{
	k->objectid = get64(p);
	k->type = p[8];
	k->offset = get64(p + 9);
}

static int key_cmp(const struct key *a, const struct key *b)
{
	if (a->objectid != b->objectid)
		return a->objectid < b->objectid ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return 0;
}

/* Record the SINGLE chunk described at p (a btrfs_chunk). */
static void add_chunk(uint64_t logical, const uint8_t *p)
{
	if (get16(p + 44) != 1)
		die("chunk with more than one stripe: make the image with -m single -d single");
	if (nr_chunks == MAX_CHUNKS)
		die("too many chunks");
	chunks[nr_chunks].logical = logical;
	chunks[nr_chunks].length = get64(p);
	chunks[nr_chunks].physical = get64(p + CHUNK_SIZE + 8);
	nr_chunks++;
}

static off_t map(uint64_t logical)
{
	int i;

	for (i = 0; i < nr_chunks; i++)
		if (logical >= chunks[i].logical &&
		    logical < chunks[i].logical + chunks[i].length)
			return chunks[i].physical + (logical - chunks[i].logical);
	die("logical address outside every chunk");
	return 0;
}

static void read_block(uint64_t logical, uint8_t *buf)
{
	if (pread(fd, buf, nodesize, map(logical)) != (ssize_t)nodesize)
		die("short read of a tree block");
	if (get32(buf) != crc32c(buf + 32, nodesize - 32))
		die("tree block checksum mismatch: not a clean image");
}

static void write_block(uint64_t logical, uint8_t *buf)
{
	memset(buf, 0, 32);
	put32(buf, crc32c(buf + 32, nodesize - 32));
	if (pwrite(fd, buf, nodesize, map(logical)) != (ssize_t)nodesize)
		die("short write of a tree block");
}

static uint8_t *item(uint8_t *leaf, int slot)
{
	return leaf + HEADER_SIZE + slot * ITEM_SIZE;
}

static uint8_t *item_data(uint8_t *leaf, int slot)
{
	return leaf + HEADER_SIZE + get32(item(leaf, slot) + 17);
}

/*
 * Find the leaf holding the first key >= want in the tree rooted at
 * logical; leaves the leaf in buf and its address in *at, returns the
 * slot of an exact match or -1.
 */
static int search(uint64_t logical, const struct key *want, uint8_t *buf,
		  uint64_t *at)
{
	for (;;) {
		uint32_t n, i;
		struct key k;

		read_block(logical, buf);
		n = get32(buf + 96);
		if (buf[100] == 0) {
			*at = logical;
			for (i = 0; i < n; i++) {
				read_key(item(buf, i), &k);
				if (!key_cmp(&k, want))
					return i;
			}
			return -1;
		}
		/* A node: the last pointer whose key is <= want. */
		for (i = 1; i < n; i++) {
			read_key(buf + HEADER_SIZE + i * KEY_PTR_SIZE, &k);
			if (key_cmp(&k, want) > 0)
				break;
		}
		logical = get64(buf + HEADER_SIZE + (i - 1) * KEY_PTR_SIZE + 17);
	}
}

/* The first slot whose key has this objectid and type, any offset. */
static int find_type(uint8_t *leaf, uint64_t objectid, uint8_t type)
{
	uint32_t i, n = get32(leaf + 96);
	struct key k;

	for (i = 0; i < n; i++) {
		read_key(item(leaf, i), &k);
		if (k.objectid == objectid && k.type == type)
			return i;
	}
	return -1;
}

/* Data of slots >= from move up by delta bytes, as btrfs does. */
static void shift_data(uint8_t *leaf, int from, uint32_t end, uint32_t delta)
{
	uint32_t n = get32(leaf + 96), lowest, i;

	lowest = get32(item(leaf, n - 1) + 17);
	memmove(leaf + HEADER_SIZE + lowest + delta, leaf + HEADER_SIZE + lowest,
		end - lowest);
	for (i = from; i < n; i++)
		put32(item(leaf, i) + 17, get32(item(leaf, i) + 17) + delta);
}

static void shrink_item(uint8_t *leaf, int slot, uint32_t new_size)
{
	uint32_t off = get32(item(leaf, slot) + 17);
	uint32_t size = get32(item(leaf, slot) + 21);

	shift_data(leaf, slot, off + new_size, size - new_size);
	put32(item(leaf, slot) + 21, new_size);
}

static void delete_item(uint8_t *leaf, int slot)
{
	uint32_t n = get32(leaf + 96);
	uint32_t off = get32(item(leaf, slot) + 17);
	uint32_t size = get32(item(leaf, slot) + 21);

	shift_data(leaf, slot + 1, off, size);
	memmove(item(leaf, slot), item(leaf, slot + 1), (n - slot - 1) * ITEM_SIZE);
	put32(leaf + 96, n - 1);
}

static void load_chunks(const uint8_t *sb)
{
	uint32_t len = get32(sb + 0xa0), pos = 0;
	const uint8_t *arr = sb + 0x32b;
	uint8_t *buf = malloc(nodesize);
	uint32_t i, n;
	struct key k;

	while (pos < len) {
		read_key(arr + pos, &k);
		add_chunk(k.offset, arr + pos + 17);
		pos += 17 + CHUNK_SIZE + get16(arr + pos + 17 + 44) * STRIPE_SIZE;
	}
	/* The chunk tree maps the rest (metadata, data); small: one leaf. */
	read_block(get64(sb + 0x58), buf);
	if (buf[100] != 0)
		die("chunk tree is not a single leaf");
	n = get32(buf + 96);
	for (i = 0; i < n; i++) {
		read_key(item(buf, i), &k);
		if (k.type == CHUNK_ITEM_KEY)
			add_chunk(k.offset, item_data(buf, i));
	}
	free(buf);
}

int main(int argc, char **argv)
{
	uint8_t sb[SUPER_SIZE], *leaf;
	struct key want = { FS_TREE_OBJECTID, ROOT_ITEM_KEY, 0 };
	uint64_t ino, fs_root, at;
	int slot, inline0;

	if (argc != 4 || (strcmp(argv[3], "inline0") && strcmp(argv[3], "noextent"))) {
		fprintf(stderr, "usage: btrfs-empty-link IMAGE INO inline0|noextent\n");
		return 2;
	}
	inline0 = !strcmp(argv[3], "inline0");
	ino = strtoull(argv[2], NULL, 0);
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (pread(fd, sb, sizeof(sb), SUPER_OFFSET) != sizeof(sb) ||
	    memcmp(sb + 0x40, SUPER_MAGIC, 8))
		die("no btrfs superblock");
	if (get16(sb + 0xc4) != 0)
		die("checksum type is not crc32c");
	nodesize = get32(sb + 0x94);
	leaf = malloc(nodesize);
	load_chunks(sb);

	/* The top subvolume's root, from its ROOT_ITEM in the root tree. */
	search(get64(sb + 0x50), &want, leaf, &at);
	slot = find_type(leaf, FS_TREE_OBJECTID, ROOT_ITEM_KEY);
	if (slot < 0)
		die("no ROOT_ITEM for the top subvolume");
	fs_root = get64(item_data(leaf, slot) + 176);

	want = (struct key){ ino, INODE_ITEM_KEY, 0 };
	slot = search(fs_root, &want, leaf, &at);
	if (slot < 0)
		die("no such inode");
	if ((get32(item_data(leaf, slot) + 52) & 0170000) != 0120000)
		die("that inode is not a symlink");
	put64(item_data(leaf, slot) + 16, 0);	/* i_size */
	put64(item_data(leaf, slot) + 24, 0);	/* nbytes */

	slot = find_type(leaf, ino, EXTENT_DATA_KEY);
	if (slot < 0)
		die("the inode's extent item is not in the same leaf");
	if (item_data(leaf, slot)[20] != 0)
		die("the link's extent is not inline");
	if (inline0) {
		put64(item_data(leaf, slot) + 8, 0);	/* ram_bytes */
		shrink_item(leaf, slot, EXTENT_INLINE_HDR);
	} else {
		delete_item(leaf, slot);
	}
	write_block(at, leaf);
	if (fsync(fd) || close(fd))
		die(strerror(errno));
	return 0;
}
