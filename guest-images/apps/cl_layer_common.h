/* What every OpenCL layer of apps/ (libcl_*.c, loaded with OPENCL_LAYERS) has in common: the
 * ICD loader's layer entry points.  The including file defines
 *     static void layer_install(struct _cl_icd_dispatch *d);
 * which replaces the dispatch entries it intercepts; `target` is the next layer's (or the ICD's)
 * dispatch table, for passing calls on.  Include it once, in the layer's one source file. */
#ifndef MALIBU_CL_LAYER_COMMON_H
#define MALIBU_CL_LAYER_COMMON_H

#include <CL/cl_layer.h>

static const struct _cl_icd_dispatch *target;
static struct _cl_icd_dispatch layer;

static void layer_install(struct _cl_icd_dispatch *d);

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info name, size_t size, void *value,
                                               size_t *size_ret)
{
    if (name != CL_LAYER_API_VERSION)
        return CL_INVALID_VALUE;
    if (size_ret)
        *size_ret = sizeof(cl_layer_api_version);
    if (value) {
        if (size < sizeof(cl_layer_api_version))
            return CL_INVALID_VALUE;
        *(cl_layer_api_version *)value = CL_LAYER_API_VERSION_100;
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries,
                                            const struct _cl_icd_dispatch *target_dispatch,
                                            cl_uint *num_entries_ret,
                                            const struct _cl_icd_dispatch **layer_dispatch_ret)
{
    const cl_uint entries = sizeof layer / sizeof(void *);
    if (!target_dispatch || !num_entries_ret || !layer_dispatch_ret || num_entries < entries)
        return CL_INVALID_VALUE;
    target = target_dispatch;
    layer = *target_dispatch;
    layer_install(&layer);
    *layer_dispatch_ret = &layer;
    *num_entries_ret = entries;
    return CL_SUCCESS;
}

#endif
