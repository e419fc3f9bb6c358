; kernplug-barrier-fission, ThreadRangeSplit.cpp's markIntervalNoWrap: in the part of a
; split thread loop where `x >= k` holds (unsigned, x = threadIdx.x), `x - k` cannot wrap
; and its clone there is marked `nuw nsw`, so the scan's `buf[tid - offset]` becomes a
; 64-bit induction variable for the vectoriser (no wrap check in each round); its
; extensions become the subtraction of the extended operands (`.wide`), which survives
; InstCombine's `x + -1` for a constant bound.
; And hintSplitPartInterleave: the parts' x loops of a kernel that reads no threadIdx.y/z
; (a row is the whole block) ask for llvm.loop.interleave.count 4; rows_2d reads
; threadIdx.y (rows of a 2D tile may be short) and keeps the cost model's choice.
; - scan_above: `t u< k` copies, the other way adds buf[t - k]: InstCombine's form of the
;   Hillis-Steele round. The part above the interval (x >= hi >= k) gets `sub nuw nsw`
;   (LLVM 22's InstCombine infers it from the branch already, in both parts) and `.wide`;
;   the interval's part (where the subtraction is dead code) gets no `.wide`.
; - scan_inside: `t u>= k` itself: the interval's part gets it.
; - other_bound: `t - m` under `t u>= k`: m is not the compared bound, left as it is.
; The bounds are block-local (ntid.x / 4, / 8), not the problem size: the loops split.
; - two_upper: `t u< k && t u< m`: above the interval only one of them fails, so neither
;   subtraction is marked.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'scan_above': 1 thread loops split where a branch on threadIdx.x changes; 1 subtractions of threadIdx.x minus a bound it is known to reach taken as no-wrap, in 64 bits
; REMARK: kernel 'scan_inside': 1 thread loops split where a branch on threadIdx.x changes; 1 subtractions of threadIdx.x minus a bound it is known to reach taken as no-wrap, in 64 bits
; REMARK-SAME: ; 2 parts of split thread loops interleaved 4x (the kernel reads no threadIdx.y or .z: a row is the whole block)
; REMARK-NOT: kernel 'other_bound': {{.*}}no-wrap
; REMARK-NOT: kernel 'two_upper': {{.*}}no-wrap
; REMARK: kernel 'rows_2d': 1 thread loops split where a branch on threadIdx.x changes; 1 subtractions of threadIdx.x minus a bound it is known to reach taken as no-wrap, in 64 bits; 3 regions branch straight to the next, not through the dispatch{{$}}

; CHECK-LABEL: define internal void @scan_above.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: %kp.x.hi = trunc i64
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop ![[LOOP:[0-9]+]]
; CHECK-NOT: .wide
; CHECK: phi i32 [ %kp.x.hi, %done.x{{[0-9]*}} ]
; CHECK: %[[W:d[0-9]*]] = sub nuw nsw i32 %{{.*}}, %k
; CHECK-NEXT: %[[A:[0-9]+]] = zext i32 %{{.*}} to i64
; CHECK-NEXT: %[[B:[0-9]+]] = zext i32 %k{{.*}} to i64
; CHECK-NEXT: %[[W]].wide = sub nuw nsw i64 %[[A]], %[[B]]
; CHECK-NEXT: getelementptr {{.*}}@buf, {{.*}}i64 %[[W]].wide
; CHECK-NOT: .wide = 
; The copy for blocks of one row (barrier-fission-one-row.ll), at the entry's end: the same.
; CHECK: kp.onerow{{[0-9]*}}:
; CHECK: .wide = sub nuw nsw i64
; CHECK-NOT: .wide = 
; CHECK-LABEL: define internal void @scan_inside.kp.cpu_block(
; CHECK-NOT: .wide
; CHECK: phi i32 [ %kp.x.hi, %done.x{{[0-9]*}} ]
; CHECK: %[[W:d[0-9]*]] = sub nuw nsw i32 %{{.*}}, %k
; CHECK: %[[W]].wide = sub nuw nsw i64
; CHECK-NOT: .wide = 
; CHECK: kp.onerow{{[0-9]*}}:
; CHECK: .wide = sub nuw nsw i64
; CHECK-NOT: .wide = 
; CHECK-LABEL: define internal void @other_bound.kp.cpu_block(
; CHECK: %kp.x.lo = trunc i64
; CHECK: %d{{[0-9]*}} = sub nsw i32 %{{.*}}, %m
; CHECK-NOT: sub nuw
; CHECK-NOT: .wide
; CHECK-LABEL: define internal void @two_upper.kp.cpu_block(
; CHECK: %kp.x.hi = trunc i64
; CHECK-NOT: sub nuw
; CHECK-NOT: .wide
; CHECK-LABEL: define internal void @rows_2d.kp.cpu_block(
; CHECK: %[[W:d[0-9]*]].wide = sub nuw nsw i64
; CHECK: attributes
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[MARK:[0-9]+]], ![[IC:[0-9]+]]}
; CHECK: ![[IC]] = !{!"llvm.loop.interleave.count", i32 4}

@buf = internal global [2 x [256 x i32]] zeroinitializer

define void @scan_above() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  call void @kp_dev_syncthreads()
  %ti = zext i32 %t to i64
  %src = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %ti
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 1, i64 %ti
  %v = load i32, ptr %src, align 4
  %lt = icmp ult i32 %t, %k
  br i1 %lt, label %copy, label %add
copy:
  store i32 %v, ptr %dst, align 4
  br label %done
add:
  %d = sub i32 %t, %k
  %di = zext i32 %d to i64
  %q = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %di
  %w = load i32, ptr %q, align 4
  %s = add nsw i32 %v, %w
  store i32 %s, ptr %dst, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @scan_inside() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  call void @kp_dev_syncthreads()
  %ge = icmp uge i32 %t, %k
  br i1 %ge, label %add, label %done
add:
  %d = sub i32 %t, %k
  %di = zext i32 %d to i64
  %q = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %di
  %w = load i32, ptr %q, align 4
  %ti = zext i32 %t to i64
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 1, i64 %ti
  store i32 %w, ptr %dst, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @other_bound() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  %m = lshr i32 %n, 3
  call void @kp_dev_syncthreads()
  %ge = icmp uge i32 %t, %k
  br i1 %ge, label %add, label %done
add:
  %d = sub i32 %t, %m
  %di = zext i32 %d to i64
  %q = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %di
  %w = load i32, ptr %q, align 4
  %ti = zext i32 %t to i64
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 1, i64 %ti
  store i32 %w, ptr %dst, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @two_upper() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  %m = lshr i32 %n, 3
  call void @kp_dev_syncthreads()
  %lt1 = icmp ult i32 %t, %k
  %lt2 = icmp ult i32 %t, %m
  %both = and i1 %lt1, %lt2
  br i1 %both, label %done, label %add
add:
  %d = sub i32 %t, %k
  %e = sub i32 %t, %m
  %di = zext i32 %d to i64
  %ei = zext i32 %e to i64
  %q = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %di
  %r = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 1, i64 %ei
  %w = load i32, ptr %q, align 4
  store i32 %w, ptr %r, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @rows_2d() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %y = call i32 @kp_dev_tid_y()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  call void @kp_dev_syncthreads()
  %yi = zext i32 %y to i64
  %lt = icmp ult i32 %t, %k
  br i1 %lt, label %done, label %add
add:
  %d = sub i32 %t, %k
  %di = zext i32 %d to i64
  %q = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 %yi, i64 %di
  %w = load i32, ptr %q, align 4
  %ti = zext i32 %t to i64
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 %yi, i64 %ti
  store i32 %w, ptr %dst, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_tid_y() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2, !3, !4}
!0 = !{!"scan_above", ptr @scan_above, ptr @scan_above, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"scan_inside", ptr @scan_inside, ptr @scan_inside, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"other_bound", ptr @other_bound, ptr @other_bound, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
!3 = !{!"two_upper", ptr @two_upper, ptr @two_upper, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 2, !""}
!4 = !{!"rows_2d", ptr @rows_2d, ptr @rows_2d, i1 false, !"", i64 0, !"in.c", i32 5, !{}, i32 2, !""}
