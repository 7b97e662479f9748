package cuda

import (
	"errors"
	"os"
	"regexp"
	"testing"

	"github.com/warpbook/warpbook/engine/sass"
)

// saxpySM80 is cuobjdump -sass of saxpy compiled by nvcc 12.4 for sm_80
// (its first eight instructions), with a guarded EXIT.
const saxpySM80 = `		Function : saxpy
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
        /*0000*/                   MOV R1, c[0x0][0x28] ;                             /* 0x00000a0000017a02 */
                                                                                      /* 0x000fe40000000f00 */
        /*0010*/                   S2R R4, SR_CTAID.X ;                               /* 0x0000000000047919 */
                                                                                      /* 0x000e280000002500 */
        /*0020*/                   S2R R3, SR_TID.X ;                                 /* 0x0000000000037919 */
                                                                                      /* 0x000e240000002100 */
        /*0030*/                   IMAD R4, R4, c[0x0][0x0], R3 ;                     /* 0x0000000004047a24 */
                                                                                      /* 0x001fca00078e0203 */
        /*0040*/                   ISETP.GE.AND P0, PT, R4, c[0x0][0x178], PT ;       /* 0x00005e0004007a0c */
                                                                                      /* 0x000fda0003f06270 */
        /*0050*/               @P0 EXIT ;                                             /* 0x000000000000094d */
                                                                                      /* 0x000fea0003800000 */
        /*0060*/                   HFMA2.MMA R5, -RZ, RZ, 0, 2.384185791015625e-07 ;  /* 0x00000004ff057435 */
                                                                                      /* 0x000fe200000001ff */
        /*0070*/                   ULDC.64 UR4, c[0x0][0x118] ;                       /* 0x0000460000047ab9 */
                                                                                      /* 0x000fd20000000a00 */
		..........
`

func TestExcerpt(t *testing.T) {
	listing, err := os.ReadFile("testdata/sass_sm75.txt")
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := SplitSASS(string(listing))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile
	for _, tc := range []struct {
		name, sass string
		sel        Selection
		want       string
	}{
		{"match", funcs["dyn"], Selection{Match: re(`^(STS|LDS|BAR)`)},
			"/*0050*/ STS [R4.X4], R7 ;\n...\n/*0080*/ BAR.SYNC 0x0 ;\n/*0090*/ LDS.U R5, [R0] ;\n"},
		{"context", funcs["dyn"], Selection{Match: re(`^BAR`), Context: 1},
			"/*0070*/ LOP3.LUT R0, R0, 0x4, RZ, 0x3c, !PT ;\n/*0080*/ BAR.SYNC 0x0 ;\n/*0090*/ LDS.U R5, [R0] ;\n"},
		{"from-to", funcs["_Z8useconstPfPKfi"], Selection{From: re(`^LDC`), To: re(`^CALL`)},
			"/*00a0*/ LDC R5, c[0x3][R0] ;\n/*00b0*/ FMUL R5, R2, R5 ;\n/*00c0*/ MOV R2, 0xe0 ;\n/*00d0*/ CALL.REL.NOINC 0x120 ;\n"},
		{"from-to-match", funcs["_Z8useconstPfPKfi"], Selection{From: re(`^S2R`), To: re(`^EXIT`), Match: re(`^(LDG|STG)`)},
			"/*0070*/ LDG.E.SYS R2, [R2] ;\n...\n/*0100*/ STG.E.SYS [R2], R0 ;\n"},
		{"guard", saxpySM80, Selection{From: re(`^ISETP`), To: re(`EXIT`)},
			"/*0040*/     ISETP.GE.AND P0, PT, R4, c[0x0][0x178], PT ;\n/*0050*/ @P0 EXIT ;\n"},
		{"raw", saxpySM80, Selection{Match: re(`EXIT`), Raw: true},
			"        /*0050*/               @P0 EXIT ;                                             /* 0x000000000000094d */\n" +
				"                                                                                      /* 0x000fea0003800000 */\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Excerpt(tc.sass, tc.sel)
			if err != nil || got != tc.want {
				t.Errorf("got %v\n%s\nwant\n%s", err, got, tc.want)
			}
		})
	}
	// With Control, each instruction's control information as engine/sass
	// decodes it from the second word, columns aligned.
	got, err := Excerpt(saxpySM80, Selection{From: re(`^ISETP`), To: re(`EXIT`), Control: true})
	want := "/*0040*/     ISETP.GE.AND P0, PT, R4, c[0x0][0x178], PT ;  " + sass.DecodeControl(0x000fda0003f06270).String() + "\n" +
		"/*0050*/ @P0 EXIT ;                                        " + sass.DecodeControl(0x000fea0003800000).String() + "\n"
	if err != nil || got != want {
		t.Errorf("control: got %v\n%s\nwant\n%s", err, got, want)
	}
	// Listings before sm_70 (three instructions to a control word) are
	// not read.
	if _, err := Excerpt("\t\tFunction : k\n        /*0008*/                   MOV R1, c[0x0][0x20] ;   /* 0x4c98078000870001 */\n", Selection{}); err == nil {
		t.Error("no error for a listing engine/sass does not read")
	}
	for _, sel := range []Selection{{Match: re(`^HGMMA`)}, {From: re(`^HGMMA`)}, {From: re(`^EXIT`), To: re(`^LDG`)}} {
		if _, err := Excerpt(saxpySM80, sel); !errors.Is(err, ErrSelection) {
			t.Errorf("%+v: %v, want ErrSelection", sel, err)
		}
	}
}
