// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_blob: a read-only sysfs binary attribute of a chosen size, the
 * yardstick make bench reads a profile against.
 *
 *   size=BYTES  (load time only) size of /sys/module/pgo_blob/blob; make
 *               bench sets it to the size of /sys/kernel/pgo/profraw.
 *
 * The file is served straight from a buffer filled at load time, the
 * cheapest a sysfs binary attribute can be: reading a profile costs what
 * this costs plus the profile's serialization.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>
#include <linux/vmalloc.h>

/*
 * The callbacks of a bin_attribute take it const since 6.16 (commit
 * 97d06802d10a): make bench builds this module against 6.12 and 7.3.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define PGO_BLOB_ATTR const struct bin_attribute
#else
#define PGO_BLOB_ATTR struct bin_attribute
#endif

static unsigned long pgo_blob_size = 4096;
module_param_named(size, pgo_blob_size, ulong, 0400);
MODULE_PARM_DESC(size, "size of the blob file in bytes");

static void *pgo_blob_buf;

static ssize_t pgo_blob_read(struct file *file, struct kobject *kobj,
			     PGO_BLOB_ATTR *attr, char *buf,
			     loff_t off, size_t count)
{
	return memory_read_from_buffer(buf, count, &off, pgo_blob_buf,
				       attr->size);
}

static struct bin_attribute pgo_blob_attr = {
	.attr = { .name = "blob", .mode = 0400 },
	.read = pgo_blob_read,
};

static int __init pgo_blob_init(void)
{
	unsigned long i;
	int ret;

	if (!pgo_blob_size || pgo_blob_size > SZ_256M)
		return -EINVAL;
	pgo_blob_buf = vmalloc(pgo_blob_size);
	if (!pgo_blob_buf)
		return -ENOMEM;
	for (i = 0; i < pgo_blob_size; i++)
		((u8 *)pgo_blob_buf)[i] = i * 131;
	pgo_blob_attr.size = pgo_blob_size;
	ret = sysfs_create_bin_file(&THIS_MODULE->mkobj.kobj, &pgo_blob_attr);
	if (ret)
		vfree(pgo_blob_buf);
	return ret;
}

static void __exit pgo_blob_exit(void)
{
	sysfs_remove_bin_file(&THIS_MODULE->mkobj.kobj, &pgo_blob_attr);
	vfree(pgo_blob_buf);
}

module_init(pgo_blob_init);
module_exit(pgo_blob_exit);
MODULE_DESCRIPTION("A static sysfs binary attribute to compare profile reads with");
MODULE_LICENSE("GPL");
