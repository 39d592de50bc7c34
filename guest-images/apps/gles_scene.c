/* gles_scene: a small GLES 3.0 scene drawn headless (EGL device platform, no window system) on a
 * chosen device, read back and checked.
 *
 *   gles_scene [-d llvmpipe|panfrost|/dev/dri/renderDN] [-o IMAGE.ppm] [-m MASK.pgm]
 *
 * Into a 256x256 RGBA8 framebuffer object with a 24-bit depth buffer it draws, depth-tested:
 * four axis-aligned quads textured from a 64x64 RGBA8 texture with all 7 mip levels uploaded
 * (magnified 2x, and minified 2x, 4x and 8x so that levels 1, 2 and 3 are sampled; nearest
 * filtering), two opaque flat triangles at different depths (the second one drawn behind
 * what is already there), a triangle with Gouraud colours sampling the texture trilinearly,
 * and an alpha-blended triangle in front.  glReadPixels reads the result back.
 *
 * Where GL's rules make a pixel exact (the clear colour; the interior, one pixel away from every
 * triangle edge, of flat triangles and of nearest-sampled quads whose texel centres fall on
 * pixel centres, with the depth test between constant depths), the program computes the
 * expected colour on the CPU and compares: every such pixel must match exactly.  Elsewhere
 * (triangle edges, Gouraud colours, trilinear filtering, blending) GL leaves the precision to
 * the implementation: those pixels are left out of the check and out of the mask.
 * -o writes the image (PPM, top row first), -m the mask of exact pixels (PGM, 255 = exact), so
 * that tests/piglit/gles_scene_compare.py can compare two devices' images on the host.
 *
 * Device: the EGL device (EGL_EXT_device_enumeration) whose extensions include
 * EGL_MESA_device_software for "llvmpipe", the one with a DRM render node for "panfrost" (or
 * the one with that render node).  Mesa's device platform does not fall back to software when
 * a DRM device's driver fails, so a "panfrost" run is the GPU's or nothing.
 * Output lines start with "gles_scene: "; the last is PASS or FAIL (exit status 0 or 1; 2 when
 * EGL or GL cannot be set up).
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256
#define TEX 64
#define LEVELS 7

static void fail_setup(const char *what)
{
    printf("gles_scene: setup failed: %s (EGL error 0x%x, GL error 0x%x)\n", what,
           (unsigned)eglGetError(), (unsigned)glGetError());
    printf("gles_scene: FAIL\n");
    exit(2);
}

/* ---- the scene, in window coordinates (origin bottom-left, pixel centres at +0.5) ---------- */

enum kind { QUAD_NEAREST, FLAT, GOURAUD_TRILINEAR, BLEND };

typedef struct {
    enum kind kind;
    float x[3], y[3];       /* triangle corners; a quad uses x[0..1], y[0..1] as its rectangle */
    float z;                /* NDC depth, constant over the primitive */
    uint8_t rgba[4];        /* FLAT and BLEND colour (BLEND: alpha 64/255, about a quarter) */
    int level;              /* QUAD_NEAREST: the mip level its scale selects */
} prim_t;

/* Drawn in this order.  The second flat triangle lies behind the first one and the big quad;
 * the blended one is in front of everything. */
static const prim_t scene[] = {
    {QUAD_NEAREST, {16, 144}, {16, 144}, 0.0f, {0}, 0},         /* 64 texels over 128 pixels */
    {QUAD_NEAREST, {160, 192}, {16, 48}, 0.0f, {0}, 1},         /* 64 over 32: level 1 */
    {QUAD_NEAREST, {208, 224}, {16, 32}, 0.0f, {0}, 2},         /* 64 over 16: level 2 */
    {QUAD_NEAREST, {232, 240}, {16, 24}, 0.0f, {0}, 3},         /* 64 over 8: level 3 */
    {FLAT, {100, 220, 120}, {60, 100, 200}, -0.5f, {255, 0, 0, 255}, 0},
    {FLAT, {60, 250, 180}, {120, 140, 250}, 0.5f, {0, 255, 0, 255}, 0},
    {GOURAUD_TRILINEAR, {150, 252, 252}, {60, 60, 140}, -0.2f, {0}, 0},
    {BLEND, {20, 140, 10}, {180, 250, 250}, -0.8f, {255, 255, 0, 64}, 0},
};
#define NPRIMS (int)(sizeof scene / sizeof scene[0])
static const uint8_t clear_rgba[4] = {51, 102, 153, 255};   /* k/255: exact in unorm8 */

/* Texel (x, y) of mip level l: differs between neighbours and between levels. */
static void texel(int l, int x, int y, uint8_t out[4])
{
    out[0] = (uint8_t)(x * 37 + y * 11 + l * 71);
    out[1] = (uint8_t)(x * 13 + y * 53 + l * 29 + 7);
    out[2] = (uint8_t)((x ^ y) * 19 + l * 97);
    out[3] = 255;
}

/* Coverage of pixel (px, py) by p: 1 inside, 0 outside, -1 too close to an edge to say (the
 * distance margin is one pixel; GL only bounds where sub-pixel precision puts an edge). */
static int covers(const prim_t *p, int px, int py)
{
    float cx = px + 0.5f, cy = py + 0.5f;
    if (p->kind == QUAD_NEAREST)   /* integer edges: a centre is always half a pixel away */
        return cx > p->x[0] && cx < p->x[1] && cy > p->y[0] && cy < p->y[1];
    /* signed distance to each edge, positive inside (either winding) */
    float area = (p->x[1] - p->x[0]) * (p->y[2] - p->y[0]) - (p->x[2] - p->x[0]) * (p->y[1] - p->y[0]);
    float s = area > 0 ? 1.0f : -1.0f, dmin = 1e30f;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        float ex = p->x[j] - p->x[i], ey = p->y[j] - p->y[i];
        float d = s * (ex * (cy - p->y[i]) - ey * (cx - p->x[i])) / sqrtf(ex * ex + ey * ey);
        if (d < dmin)
            dmin = d;
    }
    return dmin > 1.0f ? 1 : dmin < -1.0f ? 0 : -1;
}

/* The expected colour of a pixel where GL makes it exact; returns 0 where it does not. */
static int expect(int px, int py, uint8_t out[4])
{
    float depth = 1.0f;      /* cleared; LESS test between constant, distinct depths */
    memcpy(out, clear_rgba, 4);
    for (int i = 0; i < NPRIMS; i++) {
        const prim_t *p = &scene[i];
        int c = covers(p, px, py);
        if (c == 0)
            continue;
        if (c < 0)
            return 0;
        float d = p->z * 0.5f + 0.5f;
        if (!(d < depth))
            continue;
        depth = d;
        if (p->kind == FLAT) {
            memcpy(out, p->rgba, 4);
        } else if (p->kind == QUAD_NEAREST) {
            /* the texel whose centre lies under the pixel centre: texcoord (centre - x0) / w */
            int size = TEX >> p->level;
            int tx = (int)floorf((px + 0.5f - p->x[0]) / (p->x[1] - p->x[0]) * size);
            int ty = (int)floorf((py + 0.5f - p->y[0]) / (p->y[1] - p->y[0]) * size);
            texel(p->level, tx, ty, out);
        } else {
            return 0;        /* Gouraud, trilinear or blended: the implementation's precision */
        }
    }
    return 1;
}

/* ---- EGL and GL ------------------------------------------------------------------------- */

static int has_ext(const char *list, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *s = list; s && (s = strstr(s, ext)); s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == 0))
            return 1;
    return 0;
}

static EGLDisplay open_device(const char *want)
{
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC device_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!query_devices || !device_string || !platform_display)
        fail_setup("no EGL_EXT_device_enumeration / EGL_EXT_platform_device");
    EGLDeviceEXT devs[16];
    EGLint n = 0;
    if (!query_devices(16, devs, &n) || n == 0)
        fail_setup("eglQueryDevicesEXT found no device");
    for (EGLint i = 0; i < n; i++) {
        const char *ext = device_string(devs[i], EGL_EXTENSIONS);
        const char *node = has_ext(ext, "EGL_EXT_device_drm_render_node")
                               ? device_string(devs[i], EGL_DRM_RENDER_NODE_FILE_EXT) : NULL;
        int software = has_ext(ext, "EGL_MESA_device_software");
        printf("gles_scene: EGL device %d: %s%s\n", (int)i, software ? "software" : "",
               node ? node : "");
        int pick = !strcmp(want, "llvmpipe") ? software
                 : !strcmp(want, "panfrost") ? node != NULL
                 : node && !strcmp(want, node);
        if (pick) {
            EGLDisplay dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, devs[i], NULL);
            if (dpy == EGL_NO_DISPLAY)
                fail_setup("eglGetPlatformDisplayEXT");
            printf("gles_scene: using EGL device %d for %s\n", (int)i, want);
            return dpy;
        }
    }
    fail_setup("no EGL device matches -d");
    return EGL_NO_DISPLAY;
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        printf("gles_scene: shader: %s\n", log);
        fail_setup("compiling a shader");
    }
    return s;
}

static const char *vs_src =
    "#version 300 es\n"
    "layout(location = 0) in vec3 pos;\n"
    "layout(location = 1) in vec2 uv;\n"
    "layout(location = 2) in vec4 col;\n"
    "out vec2 v_uv;\n"
    "out vec4 v_col;\n"
    "void main() { gl_Position = vec4(pos, 1.0); v_uv = uv; v_col = col; }\n";
static const char *fs_src =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform sampler2D tex;\n"
    "uniform int mode;   /* 0 colour, 1 texture, 2 texture * colour */\n"
    "in vec2 v_uv;\n"
    "in vec4 v_col;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "    if (mode == 0) o = v_col;\n"
    "    else if (mode == 1) o = texture(tex, v_uv);\n"
    "    else o = texture(tex, v_uv) * v_col;\n"
    "}\n";

typedef struct { float pos[3], uv[2], col[4]; } vertex_t;

static float ndc(float v, int size) { return v / size * 2.0f - 1.0f; }

/* The primitive's vertices (6 for a quad, 3 for a triangle); returns their count. */
static int vertices(const prim_t *p, vertex_t *v)
{
    if (p->kind == QUAD_NEAREST) {
        static const int corner[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
        for (int i = 0; i < 6; i++) {
            int cx = corner[i][0], cy = corner[i][1];
            v[i] = (vertex_t){{ndc(p->x[cx], W), ndc(p->y[cy], H), p->z}, {(float)cx, (float)cy},
                              {1, 1, 1, 1}};
        }
        return 6;
    }
    static const float gouraud[3][4] = {{1, 0.2f, 0.2f, 1}, {0.2f, 1, 0.2f, 1}, {0.2f, 0.2f, 1, 1}};
    for (int i = 0; i < 3; i++) {
        v[i] = (vertex_t){{ndc(p->x[i], W), ndc(p->y[i], H), p->z},
                          /* texcoords spanning about 3 texture repeats: minified, trilinear */
                          {(p->x[i] - p->x[0]) / 32.0f, (p->y[i] - p->y[0]) / 32.0f}, {0}};
        for (int c = 0; c < 4; c++)
            v[i].col[c] = p->kind == GOURAUD_TRILINEAR ? gouraud[i][c] : p->rgba[c] / 255.0f;
    }
    return 3;
}

static uint64_t fnv1a64(const uint8_t *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001b3ull;
    return h;
}

/* PPM / PGM, top row first (GL's rows are bottom-up). */
static int write_image(const char *path, const uint8_t *rgba, int channels)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fprintf(f, "P%d\n%d %d\n255\n", channels == 3 ? 6 : 5, W, H);
    for (int y = H - 1; y >= 0; y--)
        for (int x = 0; x < W; x++)
            fwrite(rgba + ((size_t)y * W + x) * 4, 1, (size_t)channels, f);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *device = "panfrost", *out = NULL, *mask_out = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "-d"))
            device = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-o"))
            out = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-m"))
            mask_out = argv[++i];
        else {
            fprintf(stderr, "usage: gles_scene [-d llvmpipe|panfrost|/dev/dri/renderDN] "
                            "[-o IMAGE.ppm] [-m MASK.pgm]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    EGLDisplay dpy = open_device(device);
    EGLint major, minor;
    if (!eglInitialize(dpy, &major, &minor))
        fail_setup("eglInitialize");
    const char *dext = eglQueryString(dpy, EGL_EXTENSIONS);
    if (!has_ext(dext, "EGL_KHR_surfaceless_context") || !has_ext(dext, "EGL_KHR_no_config_context"))
        fail_setup("no EGL_KHR_surfaceless_context / EGL_KHR_no_config_context");
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        fail_setup("eglBindAPI(EGL_OPENGL_ES_API)");
    static const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0,
                                      EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
        fail_setup("a GLES 3.0 context without surface");
    printf("gles_scene: EGL %d.%d, GL_RENDERER \"%s\", GL_VERSION \"%s\"\n", (int)major, (int)minor,
           (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

    /* framebuffer: RGBA8 colour texture + 24-bit depth renderbuffer */
    GLuint fbo, color, depth;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fail_setup("framebuffer incomplete");

    /* texture: 64x64 RGBA8, every level uploaded (no glGenerateMipmap: its filter is the
     * implementation's, the levels must be known exactly) */
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, LEVELS, GL_RGBA8, TEX, TEX);
    static uint8_t level[TEX * TEX * 4];
    for (int l = 0; l < LEVELS; l++) {
        int size = TEX >> l;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++)
                texel(l, x, y, level + ((size_t)y * size + x) * 4);
        glTexSubImage2D(GL_TEXTURE_2D, l, 0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, level);
    }
    GLuint nearest, trilinear;
    glGenSamplers(1, &nearest);
    glSamplerParameteri(nearest, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glSamplerParameteri(nearest, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenSamplers(1, &trilinear);
    glSamplerParameteri(trilinear, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glSamplerParameteri(trilinear, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    for (GLuint s = nearest; ; s = trilinear) {
        glSamplerParameteri(s, GL_TEXTURE_WRAP_S, GL_REPEAT);
        glSamplerParameteri(s, GL_TEXTURE_WRAP_T, GL_REPEAT);
        if (s == trilinear)
            break;
    }

    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked)
        fail_setup("linking the program");
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "tex"), 0);
    GLint mode = glGetUniformLocation(prog, "mode");

    GLuint vbo, vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(vertex_t), (void *)offsetof(vertex_t, pos));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(vertex_t), (void *)offsetof(vertex_t, uv));
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, sizeof(vertex_t), (void *)offsetof(vertex_t, col));
    for (int a = 0; a < 3; a++)
        glEnableVertexAttribArray(a);

    glViewport(0, 0, W, H);
    glClearColor(clear_rgba[0] / 255.0f, clear_rgba[1] / 255.0f, clear_rgba[2] / 255.0f,
                 clear_rgba[3] / 255.0f);
    glClearDepthf(1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glActiveTexture(GL_TEXTURE0);
    for (int i = 0; i < NPRIMS; i++) {
        const prim_t *p = &scene[i];
        vertex_t v[6];
        int n = vertices(p, v);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof v[0]), v, GL_STREAM_DRAW);
        glUniform1i(mode, p->kind == QUAD_NEAREST ? 1 : p->kind == GOURAUD_TRILINEAR ? 2 : 0);
        glBindSampler(0, p->kind == GOURAUD_TRILINEAR ? trilinear : nearest);
        if (p->kind == BLEND) {
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        } else {
            glDisable(GL_BLEND);
        }
        glDrawArrays(GL_TRIANGLES, 0, n);
    }
    static uint8_t pixels[W * H * 4], mask[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR)
        printf("gles_scene: GL error 0x%x after drawing and reading back\n", (unsigned)err);

    /* the check, on the pixels GL makes exact */
    int exact = 0, bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t want[4];
            const uint8_t *got = pixels + ((size_t)y * W + x) * 4;
            int e = expect(x, y, want);
            memset(mask + ((size_t)y * W + x) * 4, e ? 255 : 0, 4);
            if (!e)
                continue;
            exact++;
            if (memcmp(got, want, 4)) {
                if (bad < 5)
                    printf("gles_scene: pixel (%d, %d) is %d,%d,%d,%d, want %d,%d,%d,%d\n", x, y,
                           got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
                bad++;
            }
        }
    printf("gles_scene: image %dx%d fnv1a64=%016llx\n", W, H,
           (unsigned long long)fnv1a64(pixels, sizeof pixels));
    printf("gles_scene: %d exact pixels of %d checked, %d differ\n", exact, W * H, bad);
    if (out && write_image(out, pixels, 3))
        printf("gles_scene: cannot write %s\n", out), bad++;
    if (mask_out && write_image(mask_out, mask, 1))
        printf("gles_scene: cannot write %s\n", mask_out), bad++;
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    printf("gles_scene: %s\n", bad || err != GL_NO_ERROR ? "FAIL" : "PASS");
    return bad || err != GL_NO_ERROR ? 1 : 0;
}
